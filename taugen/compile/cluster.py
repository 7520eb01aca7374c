"""One cluster's manifests: the common objects, the node labels and its scheduler's tree."""

from __future__ import annotations

from collections.abc import Sequence

from taugen.compile.admission import admission_policy
from taugen.compile.backend import CompileBackend
from taugen.compile.catalog import catalog
from taugen.compile.common import NO_TIERS, priority_classes
from taugen.compile.fallback import flavor_order
from taugen.compile.fleet import ManagerPlan, multikueue_objects, placed_by_workers, with_admission_check
from taugen.compile.guarantee import Guarantees
from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels import node_labels
from taugen.compile.quota import ClassQuota
from taugen.compile.slot import slot_rule
from taugen.load.profiles import LoadedProfile
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster


def cluster_manifests(
    backend: CompileBackend,
    resolved: ResolvedCluster,
    quotas: Sequence[ClassQuota],
    profiles: Sequence[LoadedProfile],
    digest: str,
    guarantees: Guarantees | None = None,
    manager: ManagerPlan | None = None,
    tiers: Tiers = NO_TIERS,
    *,
    node_objects: bool = True,
) -> list[Manifest]:
    """Every object of out/<cluster>/ before decoration (waves, managed-by: decorate.py).
    `backend`: the cluster's scheduler (taugen/schedulers/registry.py). A MultiKueue manager's
    `quotas` are the fleet's (M2); `manager` adds M1's objects; `tiers`: the project's (R50);
    `node_objects` False leaves out the node-label objects (emit/split.py builds them)."""
    order = flavor_order([q.gpu_class for q in quotas], profiles)  # R47; no list: R25's order
    by_class = {q.gpu_class: q for q in quotas}
    queues = backend.compile(resolved, [by_class[c] for c in order], guarantees or Guarantees(), tiers)
    fleet = [] if manager is None else multikueue_objects(manager.block)
    return [
        *priority_classes(tiers),
        *admission_policy(),  # G3: before any partial Node
        *slot_rule(quotas if manager is None else manager.own),  # G4
        *(node_labels(resolved) if node_objects else []),
        *(queues if manager is None else with_admission_check(placed_by_workers(queues, manager.own))),
        *fleet,
        catalog(resolved, profiles, quotas, digest, backend.catalog_namespace, tiers),
    ]
