"""Runs Kueue could never admit as written: bad input (exit 2), not a Job left pending (§7)."""

from __future__ import annotations

from collections.abc import Callable

from taugen.core.errors import InputError, Problem
from taugen.engines.runs.jobset_shape import jobset_problems
from taugen.engines.runs.load import LoadedRun
from taugen.load.inventory import GPU
from taugen.models.profile import LevelRequest, Policy, ProfileTopology
from taugen.models.project import Cluster
from taugen.models.run import Launcher, SliceLevel, Workload
from taugen.resolve.levels import Levels, levels_of
from taugen.schedulers.registry import scheduler_of


def is_multi_node(loaded: LoadedRun) -> bool:
    """Multi-node torchrun: a direct Job with more than one rank (§7)."""
    return loaded.run.launcher == Launcher.TORCHRUN and loaded.run.workers > 1


Check = Callable[[LoadedRun, Policy, Levels], Problem | None]


def check_shape(loaded: LoadedRun, policy: Policy, cluster: Cluster) -> None:
    scheduler, levels = cluster.scheduler, levels_of(cluster.topology)
    checks: tuple[Check, ...] = (
        _gpus_without_class,
        _class_without_gpus,
        _cpu_topology,
        _same_host_torchrun,
        _slice,
    )
    if loaded.run.workload == Workload.JOBSET:
        checks = (_cpu_topology,)  # the rest per pod set: jobset_shape.py
    problems = named_levels(loaded, policy, cluster, levels)
    problems += [p for check in checks if (p := check(loaded, policy, levels)) is not None]
    problems += jobset_problems(loaded, policy, scheduler, levels)
    if loaded.run.policy.slice is not None and not scheduler_of(scheduler).capabilities.slices:
        where = loaded.doc.at(["policy", "slice"])
        hint = "remove policy.slice: a KAI PodGroup keeps to its topology level as a whole (K4)"
        problems.append(where.problem("S3", "policy.slice is Kueue's (podset-slice-*): not for KAI", hint))
    if problems:
        raise InputError(problems)


def named_levels(loaded: LoadedRun, policy: Policy, cluster: Cluster, levels: Levels) -> list[Problem]:
    """R43: a `{required: <level>}` or `{preferred: <level>}` the cluster does not declare, at the
    run's own topology (or its profile's, said at policy) and at each job's."""
    asked: list[tuple[list[str | int], object]] = [(["policy", "topology"], policy.topology)]
    asked += [(["jobs", i, "topology"], job.topology) for i, job in enumerate(loaded.run.job_list())]
    found = []
    for loc, topology in asked:
        if not isinstance(topology, LevelRequest) or levels.label_of(topology.name) is not None:
            continue
        declared = ", ".join(levels.declared)
        hint = f"name one of its levels: {declared}" if declared else "declare topology.levels in taugen.yaml"
        where = loaded.doc.at(loc)  # a profile's topology: the nearest key the run has
        message = f"cluster {cluster.name} declares no topology level {topology.name}"
        found.append(where.problem("R43", message, hint))
    return found


def _gpus_without_class(loaded: LoadedRun, policy: Policy, levels: Levels) -> Problem | None:
    gpus = loaded.run.resources.get(GPU)
    if policy.gpu_class is not None or gpus is None or gpus.value == 0:
        return None
    return loaded.doc.at(["resources", GPU]).problem(
        "§7",
        f"a CPU-only run requests {gpus} {GPU}: the CPU flavor has no GPU quota",
        "choose a profile with a gpu_class, or set policy.gpu_class",
    )


def _class_without_gpus(loaded: LoadedRun, policy: Policy, levels: Levels) -> Problem | None:
    gpus = loaded.run.resources.get(GPU)
    if policy.gpu_class is None or (gpus is not None and gpus.value > 0):
        return None
    return loaded.doc.at(["resources"]).problem(
        "§7",
        f"the run is for gpu-class {policy.class_text} but requests no {GPU}",
        f"request {GPU} per worker, or choose a CPU-only profile",
    )


def _cpu_topology(loaded: LoadedRun, policy: Policy, levels: Levels) -> Problem | None:
    if policy.gpu_class is not None or policy.topology == ProfileTopology.UNCONSTRAINED:
        return None
    source = ["policy", "topology"] if loaded.run.policy.topology else ["profile"]
    return loaded.doc.at(source).problem(
        "R23",
        f"a CPU-only run cannot be placed {policy.topology}: taugrid-default-cpu is not topology-aware",
        "use topology unconstrained, or a gpu_class",
    )


def _same_host_torchrun(loaded: LoadedRun, policy: Policy, levels: Levels) -> Problem | None:
    if not is_multi_node(loaded) or policy.topology != ProfileTopology.SAME_HOST:
        return None
    return loaded.doc.at(["workers"]).problem(
        "§7",
        f"multi-node torchrun ({loaded.run.workers} ranks) cannot be same-host: each rank takes its "
        "node's only tau.azure.com/torchrun-host-slot",
        "use workers: 1 (torchrun starts one process per GPU), or a same-accelerator-domain or "
        "same-network-domain topology",
    )


def _slice(loaded: LoadedRun, policy: Policy, levels: Levels) -> Problem | None:
    """Kueue's podset-slice-* rules (jobframework tas_validation.go, v0.19.2), said before Kueue
    would reject or strand the workload."""
    run, found = loaded.run, loaded.run.policy.slice
    if found is None:
        return None
    where = loaded.doc.spot(["policy", "slice"])
    level = levels.required(policy.topology) or levels.preferred(policy.topology)
    if policy.gpu_class is None or level is None:
        hint = "use a same-<level> or prefer-<level> topology with a gpu_class"
        return where.problem("S3", f"slices need a topology level; the run's is {policy.topology}", hint)
    if run.workload == Workload.LEADERWORKERSET:
        hint = "remove policy.slice: a replica is one PodSet group, placed in one domain as a whole"
        return where.problem(
            "K5", "Kueue forbids slices on a pod-set group (a LeaderWorkerSet replica)", hint
        )
    if levels.labels.index(levels.contract_label(found.level)) < levels.labels.index(level):
        hint = f"choose a slice level at or below {level}"
        return where.problem(
            "S3", f"slices of a {found.level} are wider than the topology {policy.topology}", hint
        )
    size = loaded.doc.spot(["policy", "slice", "size"])
    if run.workers % found.size:
        hint = f"use workers that are a multiple of {found.size}, or another slice size"
        return size.problem("S3", f"{run.workers} workers are not whole slices of {found.size}", hint)
    innermost = found.layers[-1] if found.layers else found  # only the innermost can be a host's
    if is_multi_node(loaded) and innermost.level == SliceLevel.HOST and innermost.size > 1:
        hint = "use size 1, or a wider slice level (accelerator-domain)"
        message = (
            "a host slice of more than one multi-node torchrun rank never fits: "
            "each rank takes its node's slot"
        )
        if found.layers:
            size = loaded.doc.spot(["policy", "slice", "layers", len(found.layers) - 1, "size"])
        return size.problem("S3", message, hint)
    return None
