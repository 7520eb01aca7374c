"""SPEC §11: the manager of a MultiKueue fleet (M1, M2).

M1: an AdmissionCheck `taugrid-multikueue` run by Kueue's MultiKueue controller, whose
parameters name the MultiKueueConfig `taugrid` listing the workers in `workers` order (Kueue's
Incremental dispatcher nominates them in that order), and one MultiKueueCluster per worker
whose kubeconfig is the Secret in kueue-system named in `kubeconfigSecrets` (key `kubeconfig`).
taugen writes the Secret's name only, never a Secret.

M2: the manager's ClusterQueue names the check and holds, per gpu-class of any worker, the
GPU and slot quota summed over the workers (each already at its own high-water mark, R26);
the sum is itself kept at the manager's high-water mark, so a worker that leaves lowers the
manager's quota only with --allow-quota-decrease. Placement happens in the workers: the
flavors of classes the manager has no nodes of carry no `topologyName`, and the manager's
Topology is written only when it has GPU nodes of its own. (Kueue v0.19 refuses a pod set that
asks for a topology on a flavor without `topologyName`; docs/multikueue.md says what that means
for topology-aware runs submitted to the manager.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from taugen.api.kueue.common import API_VERSION as API
from taugen.compile.manifest import Manifest, object_
from taugen.compile.quota import ClassQuota
from taugen.core.errors import Problem
from taugen.load.document import Position
from taugen.models.multikueue import MultiKueue
from taugen.resolve.labels import GPU_CLASS

ADMISSION_CHECK = "taugrid-multikueue"
CONFIG = "taugrid"
CONTROLLER = "kueue.x-k8s.io/multikueue"
FLEET_FILE = "multikueue.yaml"


def multikueue_objects(fleet: MultiKueue) -> list[Manifest]:
    """M1: the check, its config and one MultiKueueCluster per worker, in `workers` order."""
    check = object_(
        API,
        "AdmissionCheck",
        ADMISSION_CHECK,
        spec={
            "controllerName": CONTROLLER,
            "parameters": {"apiGroup": API.split("/")[0], "kind": "MultiKueueConfig", "name": CONFIG},
        },
    )
    config = object_(API, "MultiKueueConfig", CONFIG, spec={"clusters": list(fleet.workers)})
    clusters = [
        object_(
            API,
            "MultiKueueCluster",
            worker,
            spec={
                "clusterSource": {"kubeConfig": {"locationType": "Secret", "location": fleet.secret(worker)}}
            },
        )
        for worker in fleet.workers
    ]
    return [Manifest(FLEET_FILE, obj) for obj in (check, config, *clusters)]


def placed_by_workers(manifests: Iterable[Manifest], own: Sequence[ClassQuota]) -> list[Manifest]:
    """M2: no Topology unless the manager has GPU nodes; a flavor of a class it has no nodes of
    has no topologyName."""
    classes = {q.gpu_class for q in own if q.nodes}
    kept = []
    for manifest in manifests:
        if manifest.kind == "Topology" and not classes:
            continue
        spec = manifest.obj.get("spec") or {}
        gpu_class = (spec.get("nodeLabels") or {}).get(GPU_CLASS)
        if manifest.kind == "ResourceFlavor" and gpu_class is not None and gpu_class not in classes:
            spec = {k: v for k, v in spec.items() if k != "topologyName"}
            manifest = Manifest(manifest.file, {**manifest.obj, "spec": spec})
        kept.append(manifest)
    return kept


def with_admission_check(manifests: Iterable[Manifest]) -> list[Manifest]:
    """M2: every ClusterQueue of the manager waits for the MultiKueue check."""
    return [_checked(m) if m.kind == "ClusterQueue" else m for m in manifests]


def _checked(manifest: Manifest) -> Manifest:
    spec: dict[str, Any] = {
        **manifest.obj["spec"],
        "admissionChecksStrategy": {"admissionChecks": [{"name": ADMISSION_CHECK}]},
    }
    return Manifest(manifest.file, {**manifest.obj, "spec": spec})


def fleet_quotas(
    workers: Mapping[str, Sequence[ClassQuota]],
    high_water: Mapping[str, int],
    allow_decrease: bool,
    where: Position,
    extra_marks: Mapping[str, Mapping[str, int]] | None = None,
) -> tuple[list[ClassQuota], list[Problem]]:
    """M2: per gpu-class the workers' quotas summed; R26 on the sum (the manager's lock marks);
    R44: each extra resource summed the same way, every class listing every one."""
    summed: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for quotas in workers.values():
        for q in quotas:
            total = summed[q.gpu_class]
            for k, value in enumerate((q.gpus, q.observed_gpus, q.slots, q.nodes)):
                total[k] += value
    kept = {} if allow_decrease else high_water
    plan, warnings = [], []
    for gpu_class in sorted(set(summed) | set(kept)):
        gpus, observed, slots, nodes = summed.get(gpu_class, [0, 0, 0, 0])
        quota = ClassQuota(gpu_class, max(gpus, kept.get(gpu_class, 0)), observed, slots, nodes)
        if quota.gpus > gpus:
            warnings.append(_kept(quota, gpus, where))
        plan.append(quota)
    return _with_extra(plan, workers, {} if allow_decrease else (extra_marks or {})), warnings


def _with_extra(
    plan: list[ClassQuota], workers: Mapping[str, Sequence[ClassQuota]], kept: Mapping[str, Mapping[str, int]]
) -> list[ClassQuota]:
    summed: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for quotas in workers.values():
        for q in quotas:
            for resource, value in q.extra.items():
                summed[q.gpu_class][resource] += value
    names = sorted({r for c in (summed, kept) for marks in c.values() for r in marks})
    if not names:
        return plan

    def extra(gpu_class: str) -> dict[str, int]:
        ours, mark = summed.get(gpu_class, {}), kept.get(gpu_class, {})
        return {r: max(ours.get(r, 0), mark.get(r, 0)) for r in names}

    return [replace(q, extra=extra(q.gpu_class)) for q in plan]


def _kept(quota: ClassQuota, gpus: int, where: Position) -> Problem:
    return where.problem(
        "M2",
        f"the workers give gpu-class {quota.gpu_class} {gpus} GPUs; the manager's quota stays at its "
        f"high-water mark {quota.gpus}",
        "a worker left the fleet or lost nodes: pass --allow-quota-decrease to lower the manager's quota",
    ).as_warning()


def manager_of(fleet: MultiKueue | None, cluster: str) -> bool:
    return fleet is not None and fleet.manager == cluster


@dataclass(frozen=True)
class ManagerPlan:
    """What the manager's tree needs beyond a cluster's: its block and its own nodes' quotas
    (the slot rule, G4, advertises slots on its own GPU nodes only)."""

    block: MultiKueue
    own: tuple[ClassQuota, ...]
