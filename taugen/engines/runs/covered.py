"""R45: a run that requests a resource no ClusterQueue covers is refused where it asks for it.

Kueue admits a workload only when its ClusterQueue covers every resource its pods request;
one it does not cover leaves the run pending forever. The covered resources are those a build
of the current inputs writes (R25's four, and R44's `extraResources` that the GPU nodes'
allocatable holds). KAI queues count GPUs only, and nothing is refused there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from taugen.compile.extra import matches, patterns_of
from taugen.core.errors import InputError, Problem
from taugen.core.quantity import Quantity
from taugen.engines.runs.load import LoadedRun
from taugen.engines.runs.state import ClusterState
from taugen.load.document import Loc
from taugen.schedulers.kueue.flavors import COVERED


def check_covered(loaded: LoadedRun, state: ClusterState) -> None:
    """InputError (exit 2) naming each requested resource no ClusterQueue covers, at its key."""
    cluster = state.cluster
    if not cluster.capabilities.covered_resources or state.view.manager is not None:
        return  # KAI: no covered resources; a MultiKueue manager's queues are the fleet's (M2)
    quotas = state.view.quotas
    covered = {*COVERED, *(quotas[0].extra if quotas else ())}
    asked = _requests(loaded)
    problems = [_refusal(loaded, state, loc, resource) for loc, resource in asked if resource not in covered]
    if problems:
        raise InputError(problems)


def _requests(loaded: LoadedRun) -> Iterator[tuple[Loc, str]]:
    run = loaded.run
    yield from _named(["resources"], run.resources)
    if run.leader is not None:
        yield from _named(["leader", "resources"], run.leader.resources)
    for i, job in enumerate(run.jobs or ()):
        if job.resources is not None:
            yield from _named(["jobs", i, "resources"], job.resources)


def _named(base: list[str | int], resources: Mapping[str, Quantity]) -> Iterator[tuple[Loc, str]]:
    for name in resources:
        yield [*base, name], name


def _refusal(loaded: LoadedRun, state: ClusterState, loc: Loc, resource: str) -> Problem:
    name = state.cluster.name
    listed = matches(resource, patterns_of(state.cluster))
    why = (
        f"cluster {name} lists it in extraResources, but no GPU node's allocatable has it"
        if listed
        else "Kueue never admits a workload that requests it"
    )
    hint = (
        "check the device plugin's resource name in the nodes' status.allocatable, "
        "export the inventory again, and build"
        if listed
        else f"add `{resource}` to extraResources of cluster {name} in taugen.yaml and build (R44), "
        "or remove the request"
    )
    message = f"resource {resource} is covered by no ClusterQueue of cluster {name}: {why}"
    return loaded.doc.at(loc, key=True).problem("R45", message, hint)
