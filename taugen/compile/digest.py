"""The inputs digest (§5, R30): the inputs a cluster's profile catalog was resolved from.

It covers exactly what the catalog's entries depend on: the cluster's name, every profile,
for each gpu-class whether it has nodes and Ready nodes, and the names of the project's
declared priority tiers (R50: a run is rendered with a tier's classes only once a build has
written them; with none declared, the digest is what it was before tiers). A change that leaves the
catalog as it is (a new tenant, one more node of a class) leaves the digest as it is, so two
independent pull requests to one cluster do not conflict in `taugen.lock` or
`profile-catalog.yaml` (issue 16), and render still refuses a catalog that a build would
write differently (R32).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from taugen.compile.common import NO_TIERS
from taugen.compile.quota import ClassQuota
from taugen.load.profiles import LoadedProfile
from taugen.models.profile import WorkloadProfile
from taugen.models.tiers import Tiers
from taugen.resolve.cluster import ResolvedCluster


def catalog_digest(
    cluster: ResolvedCluster,
    profiles: Sequence[LoadedProfile],
    quotas: Sequence[ClassQuota],
    tiers: Tiers = NO_TIERS,
) -> str:
    """sha256 of the catalog's inputs in canonical order, so reordering changes nothing."""
    facts: dict[str, Any] = {
        "cluster": cluster.name,
        "classes": sorted([q.gpu_class, q.nodes > 0, q.slots > 0] for q in quotas),
        "profiles": sorted(
            (_profile_facts(p.profile) for p in profiles),
            key=lambda p: str(p["metadata"]["name"]),
        ),
    }
    if tiers.declared:
        facts["tiers"] = sorted(t.name for t in tiers.declared)
    blob = json.dumps(facts, sort_keys=True, separators=(",", ":")).encode()
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def _profile_facts(profile: WorkloadProfile) -> dict[str, Any]:
    # An optional field left out stays out of the digest: adding one to the model must not
    # make every committed catalog stale (R32).
    facts = profile.model_dump(mode="json")
    if profile.deprecated is None:
        del facts["deprecated"]
    return facts
