"""Runs Kueue could never admit as written: bad input (exit 2), not a Job left pending (§7)."""

from __future__ import annotations

from taugen.errors import InputError, Problem
from taugen.load.inventory import GPU
from taugen.models.profile import Policy, Topology
from taugen.models.run import Launcher
from taugen.runs.load import LoadedRun


def is_multi_node(loaded: LoadedRun) -> bool:
    """Multi-node torchrun: a direct Job with more than one rank (§7)."""
    return loaded.run.launcher == Launcher.TORCHRUN and loaded.run.workers > 1


def check_shape(loaded: LoadedRun, policy: Policy) -> None:
    checks = (_gpus_without_class, _class_without_gpus, _cpu_topology, _same_host_torchrun)
    problems = [p for check in checks if (p := check(loaded, policy)) is not None]
    if problems:
        raise InputError(problems)


def _gpus_without_class(loaded: LoadedRun, policy: Policy) -> Problem | None:
    gpus = loaded.run.resources.get(GPU)
    if policy.gpu_class is not None or gpus is None or gpus.value == 0:
        return None
    return loaded.doc.at(["resources", GPU]).problem(
        "§7",
        f"a CPU-only run requests {gpus} {GPU}: the CPU flavor has no GPU quota",
        "choose a profile with a gpu_class, or set policy.gpu_class",
    )


def _class_without_gpus(loaded: LoadedRun, policy: Policy) -> Problem | None:
    gpus = loaded.run.resources.get(GPU)
    if policy.gpu_class is None or (gpus is not None and gpus.value > 0):
        return None
    return loaded.doc.at(["resources"]).problem(
        "§7",
        f"the run is for gpu-class {policy.gpu_class} but requests no {GPU}",
        f"request {GPU} per worker, or choose a CPU-only profile",
    )


def _cpu_topology(loaded: LoadedRun, policy: Policy) -> Problem | None:
    if policy.gpu_class is not None or policy.topology == Topology.UNCONSTRAINED:
        return None
    source = ["policy", "topology"] if loaded.run.policy.topology else ["profile"]
    return loaded.doc.at(source).problem(
        "R23",
        f"a CPU-only run cannot be placed {policy.topology}: taugrid-default-cpu is not topology-aware",
        "use topology unconstrained, or a gpu_class",
    )


def _same_host_torchrun(loaded: LoadedRun, policy: Policy) -> Problem | None:
    if not is_multi_node(loaded) or policy.topology != Topology.SAME_HOST:
        return None
    return loaded.doc.at(["workers"]).problem(
        "§7",
        f"multi-node torchrun ({loaded.run.workers} ranks) cannot be same-host: each rank takes its "
        "node's only tau.azure.com/torchrun-host-slot",
        "use workers: 1 (torchrun starts one process per GPU), or a same-accelerator-domain or "
        "same-network-domain topology",
    )
