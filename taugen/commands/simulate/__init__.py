"""`taugen simulate` (SPEC §9): a simulation as text and JSON (S6), and `--fleet` (M4): admit on
the MultiKueue manager, dispatch to a worker. The simulation is the engine taugen.engines.admission."""

from taugen.engines.admission.project import SimulateOptions, run_simulation

__all__ = ["SimulateOptions", "run_simulation"]
