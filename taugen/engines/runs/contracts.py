"""The run contract of a run's cluster: what its scheduler reads off the run's objects.

render.py and lws.py build the objects; the contract (taugen/schedulers/<name>/contract.py)
says which labels, annotations and pod fields carry the scheduling decision.
"""

from __future__ import annotations

from taugen.engines.runs.resolution import RunContext
from taugen.schedulers.protocol import RunContract
from taugen.schedulers.registry import scheduler_of


def contract_of(context: RunContext) -> RunContract:
    return scheduler_of(context.state.cluster.scheduler).contract
