"""The inputs digest (§5, R30): what a cluster's tree was compiled from, order-independent."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from taugen.load.profiles import LoadedProfile
from taugen.models.profile import WorkloadProfile
from taugen.resolve.cluster import ResolvedCluster


def inputs_digest(cluster: ResolvedCluster, profiles: Sequence[LoadedProfile]) -> str:
    """sha256 of the resolved inputs in canonical order, so reordering changes nothing."""
    facts: dict[str, Any] = {
        "cluster": cluster.cluster.model_dump(mode="json")
        | {"tenants": sorted((t.namespace, t.localQueue) for t in cluster.cluster.tenants)},
        "nodes": [
            [
                n.name,
                n.ready,
                n.gpu_class,
                dict(n.labels),
                {k: str(v) for k, v in sorted(n.facts.allocatable.items())},
            ]
            for n in cluster.nodes
        ],
        "profiles": sorted(
            (_profile_facts(p.profile) for p in profiles),
            key=lambda p: str(p["metadata"]["name"]),
        ),
    }
    blob = json.dumps(facts, sort_keys=True, separators=(",", ":")).encode()
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def _profile_facts(profile: WorkloadProfile) -> dict[str, Any]:
    # An optional field left out stays out of the digest: adding one to the model must not
    # make every committed catalog stale (R32).
    facts = profile.model_dump(mode="json")
    if profile.deprecated is None:
        del facts["deprecated"]
    return facts
