"""Kueue's admission simulated (SPEC §9; the engine of `taugen simulate`, `report --simulate` and
`diff --simulate`): what Kueue would admit, and where, computed offline.

Stages, each a pure function of the previous one:
  taugen.engines.placement  the placement core: Kueue v0.19 TAS on any topology and resources (S3)
  admission, cycle          BestEffortFIFO with quota per flavor and resource (S2, T8)
  preemption                Kueue's classical preemption (T8)
  fair, fair_preemption     Kueue's fair sharing when recorded on (R49): DRS order, fair preemption
  ranks                     pod index -> host (S4), replacements and nodeDown (S5)
  project                   the project adapter: WorkloadSet + compiled tree + inventory -> core input
  compare                   the same WorkloadSet on two trees (diff --simulate)
Text and JSON (S6) are taugen.commands.simulate.
"""
