"""The engines below the commands (issue 33): libraries several commands share, importing none.

changes    what a change to an output tree does: objects paired, field changes, risks (diff, report)
admission  Kueue's admission simulated: cycles, quota, preemption, on a project (simulate, report,
           diff --simulate); Kueue's quota tree is taugen.schedulers.kueue's
runs       a run loaded and resolved against its project, and its scheduler contract rendered (§7)
placement  Kueue v0.19.2's topology-aware placement core (S3), on plain values
"""
