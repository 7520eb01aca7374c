"""`taugen simulate` (SPEC §9): what Kueue would admit, and where, computed offline.

Stages, each a pure function of the previous one:
  tree, tas     the placement core: Kueue v0.19 TAS on any topology and any resources (S3)
  admission     BestEffortFIFO with quota per flavor and resource (S2)
  ranks         pod index -> host (S4), replacements and nodeDown (S5)
  project       the project adapter: WorkloadSet + compiled tree + inventory -> core input
  report        text and JSON (S6)
"""
