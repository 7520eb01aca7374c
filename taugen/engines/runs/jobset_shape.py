"""A JobSet run's pod sets checked for sense (K6), before Kueue or KAI would strand it: the GPU
requests fit the class, each pod set's own topology and slices keep to §7 and S3, and KAI (one
PodGroup per replicatedJob, its topology read off the JobSet) takes no per-job placement."""

from __future__ import annotations

from taugen.core.errors import Problem
from taugen.engines.runs.load import LoadedRun
from taugen.engines.runs.podsets import PodSet, pod_sets
from taugen.load.inventory import GPU
from taugen.models.profile import Policy, ProfileTopology
from taugen.models.run import Workload
from taugen.resolve.levels import Levels
from taugen.schedulers.registry import scheduler_of


def jobset_problems(loaded: LoadedRun, policy: Policy, scheduler: str, levels: Levels) -> list[Problem]:
    if loaded.run.workload != Workload.JOBSET:
        return []
    sets = pod_sets(loaded.run, policy, levels)
    found = [p for s in sets for p in _pod_set(loaded, s, scheduler) if p is not None]
    if policy.gpu_class is not None and sets and not any(s.gpus(GPU) > 0 for s in sets):
        hint = f"request {GPU} in the run's resources or a job's, or choose a CPU-only profile"
        message = f"the run is for gpu-class {policy.class_text} but no job requests {GPU}"
        found.append(loaded.doc.at(["jobs"]).problem("§7", message, hint))
    return found


def _pod_set(loaded: LoadedRun, found: PodSet, scheduler: str) -> list[Problem | None]:
    return [
        _gpus(loaded, found),
        _kai(loaded, found, scheduler),
        _topology(loaded, found),
        _slice(loaded, found),
    ]


def _source(loaded: LoadedRun, found: PodSet, key: str) -> list[str | int]:
    """Where the value came from: the job's own field, else the run's."""
    job = loaded.run.job_list()[found.index]
    return [*found.at, key] if getattr(job, key) is not None else [key]


def _gpus(loaded: LoadedRun, found: PodSet) -> Problem | None:
    if found.gpu_class is not None or found.gpus(GPU) == 0:
        return None
    where = loaded.doc.at([*_source(loaded, found, "resources"), GPU])
    message = f"job {found.name} of a CPU-only run requests {GPU}: the CPU flavor has no GPU quota"
    return where.problem("§7", message, "choose a profile with a gpu_class, or set policy.gpu_class")


def _kai(loaded: LoadedRun, found: PodSet, scheduler: str) -> Problem | None:
    job = loaded.run.job_list()[found.index]
    key = "topology" if job.topology is not None else "slice" if job.slice is not None else None
    if scheduler_of(scheduler).capabilities.slices or key is None:
        return None
    hint = f"remove jobs[{found.index}].{key}: KAI places every replicatedJob by the run's policy (K4)"
    message = f"job {found.name}: a per-job {key} is Kueue's (one TAS request per pod set), not KAI's"
    return loaded.doc.at([*found.at, key]).problem("K6", message, hint)


def _topology(loaded: LoadedRun, found: PodSet) -> Problem | None:
    if found.gpu_class is not None or found.topology == ProfileTopology.UNCONSTRAINED:
        return None
    if loaded.run.job_list()[found.index].topology is None:
        return None  # the run's own topology: check_shape's R23 says it once
    message = f"job {found.name} cannot be placed {found.topology}: taugrid-default-cpu is not topology-aware"
    return loaded.doc.at([*found.at, "topology"]).problem("R23", message, "use unconstrained, or a gpu_class")


def _slice(loaded: LoadedRun, found: PodSet) -> Problem | None:
    """Kueue's podset-slice-* rules per pod set (tas_validation.go, v0.19.2), as shape.py's."""
    if found.slice is None:
        return None
    own = loaded.run.job_list()[found.index].slice is not None
    where = loaded.doc.spot([*found.at, "slice"] if own else ["policy", "slice"])
    level = found.level or found.preferred_level
    if level is None:
        hint = "use a same-<level> or prefer-<level> topology with a gpu_class"
        return where.problem(
            "S3", f"job {found.name}: slices need a topology level; its is {found.topology}", hint
        )
    labels = found.levels.labels
    if labels.index(found.levels.contract_label(found.slice.level)) < labels.index(level):
        hint = f"choose a slice level at or below {level}"
        message = (
            f"job {found.name}: slices of a {found.slice.level} are wider than its topology {found.topology}"
        )
        return where.problem("S3", message, hint)
    if found.count % found.slice.size:
        hint = f"use workers that are a multiple of {found.slice.size}, or another slice size"
        message = f"job {found.name}: {found.count} workers are not whole slices of {found.slice.size}"
        return where.problem("S3", message, hint)
    return None
