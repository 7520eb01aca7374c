"""Models of the upstream APIs taugen writes: Kueue, KAI Scheduler, Node Feature Discovery."""
