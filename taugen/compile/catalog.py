"""The resolved profile catalog of a cluster (R30), read back by render (R32)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from taugen.compile.common import NO_TIERS
from taugen.compile.manifest import Manifest, annotate, object_
from taugen.compile.quota import ClassQuota
from taugen.core.errors import InputError, Problem
from taugen.load.profiles import LoadedProfile
from taugen.models.profile import LevelRequest, ProfileTopology, Topology, classes_of
from taugen.models.tiers import Tiers, class_name
from taugen.resolve.cluster import ResolvedCluster
from taugen.resolve.labels import ACCELERATOR_DOMAIN, HOSTNAME, NETWORK_DOMAIN, SITE
from taugen.resolve.rules import gpu_class_error

CATALOG_NAME = "taugen-profile-catalog"
CATALOG_NAMESPACE = "kueue-system"  # the Kueue default; a backend names its own
CATALOG_KEY = "profiles.yaml"
CATALOG_FILE = "profile-catalog.yaml"
DIGEST_ANNOTATION = "tau.azure.com/inputs-digest"

LEVEL_OF = {  # §7: the Topology level a policy requires
    ProfileTopology.SAME_HOST: HOSTNAME,
    ProfileTopology.SAME_ACCELERATOR_DOMAIN: ACCELERATOR_DOMAIN,
    ProfileTopology.SAME_NETWORK_DOMAIN: NETWORK_DOMAIN,
    ProfileTopology.SAME_SITE: SITE,
}
PREFERRED_LEVEL_OF = {  # Kueue's podset-preferred-topology: the level tried first (S3)
    ProfileTopology.PREFER_HOST: HOSTNAME,
    ProfileTopology.PREFER_ACCELERATOR_DOMAIN: ACCELERATOR_DOMAIN,
    ProfileTopology.PREFER_NETWORK_DOMAIN: NETWORK_DOMAIN,
    ProfileTopology.PREFER_SITE: SITE,
}


def catalog(
    cluster: ResolvedCluster,
    profiles: Sequence[LoadedProfile],
    quotas: Sequence[ClassQuota],
    digest: str,
    namespace: str = CATALOG_NAMESPACE,
    tiers: Tiers = NO_TIERS,
) -> Manifest:
    _check_classes(cluster, profiles)
    _check_tiers(profiles, tiers)
    by_class = {q.gpu_class: q for q in quotas}
    entries = [_entry(cluster, p, by_class) for p in profiles]
    body = {"cluster": cluster.name, "inputsDigest": digest, "profiles": entries}
    text = yaml.dump(body, Dumper=yaml.SafeDumper, sort_keys=True, width=1 << 16)
    obj = object_("v1", "ConfigMap", CATALOG_NAME, namespace, data={CATALOG_KEY: text})
    annotate(obj, {DIGEST_ANNOTATION: digest})
    return Manifest(CATALOG_FILE, obj)


def _entry(
    cluster: ResolvedCluster, loaded: LoadedProfile, by_class: dict[str, ClassQuota]
) -> dict[str, Any]:
    policy = loaded.profile.policy
    reason = not_ready_reason(cluster.name, policy.gpu_class, by_class) or _undeclared(
        cluster, policy.topology
    )
    ready = ready_classes(policy.gpu_class, by_class)
    entry: dict[str, Any] = {
        "name": loaded.profile.metadata.name,
        "policy": policy.model_dump(mode="json"),
        "priorityClass": class_name(policy.priority_tier),  # R20, R21, R50
        "topologyLevel": cluster.levels.required(policy.topology),
        "ready": reason is None,
    }
    if reason is not None:
        entry["reason"] = reason
    if policy.fallback and ready:  # R47: the listed classes it may run on here, in its order
        entry["readyClasses"] = list(ready)
    if loaded.profile.deprecated is not None:
        entry["deprecated"] = loaded.profile.deprecated.model_dump(mode="json")
    return entry


def not_ready_reason(
    cluster: str, gpu_class: str | list[str] | None, by_class: Mapping[str, ClassQuota]
) -> str | None:
    """Why a policy with this gpu-class cannot be placed in the cluster (R30), or None. R47: a
    list is ready where at least one listed class is; when none is, every class's reason."""
    if isinstance(gpu_class, list):
        reasons = [_class_reason(cluster, c, by_class) for c in gpu_class]
        if any(r is None for r in reasons):
            return None
        return "no listed gpu-class is ready: " + "; ".join(r for r in reasons if r)
    return _class_reason(cluster, gpu_class, by_class)


def ready_classes(gpu_class: str | list[str] | None, by_class: Mapping[str, ClassQuota]) -> tuple[str, ...]:
    """R47: the classes of a policy that are ready in the cluster, in the policy's order."""
    return tuple(c for c in classes_of(gpu_class) if _class_reason("", c, by_class) is None)


def _class_reason(cluster: str, gpu_class: str | None, by_class: Mapping[str, ClassQuota]) -> str | None:
    if gpu_class is None:
        return None
    quota = by_class.get(gpu_class)
    if quota is None:
        return f"gpu-class {gpu_class} has no nodes in cluster {cluster}"
    if quota.nodes == 0:
        return f"gpu-class {gpu_class} has no nodes left in cluster {cluster} (flavor kept by R26)"
    if quota.slots == 0:
        return f"gpu-class {gpu_class} has no Ready node in cluster {cluster}"
    return None


def _undeclared(cluster: ResolvedCluster, topology: Topology) -> str | None:
    """R43: a profile naming a level this cluster does not declare is not ready here."""
    if not isinstance(topology, LevelRequest) or cluster.levels.label_of(topology.name) is not None:
        return None
    declared = ", ".join(cluster.levels.declared) or "none"
    return f"cluster {cluster.name} declares no topology level {topology.name} (its levels: {declared})"


def _check_classes(cluster: ResolvedCluster, profiles: Sequence[LoadedProfile]) -> None:
    """R3: a platform identifier is refused wherever a gpu-class is given."""
    mapping = cluster.rules.series_to_class()
    problems: list[Problem] = []
    for loaded in profiles:
        value = loaded.profile.policy.gpu_class
        for i, gpu_class in enumerate(classes_of(value)):
            if err := gpu_class_error(gpu_class, mapping):
                at: list[str | int] = ["policy", "gpu_class", *([i] if isinstance(value, list) else [])]
                problems.append(loaded.doc.at(at).problem("R3", *err))
    if problems:
        raise InputError(problems)


def _check_tiers(profiles: Sequence[LoadedProfile], tiers: Tiers) -> None:
    """R50: a profile names one of the project's tiers (TauGrid's two, or a declared one)."""
    problems = [
        loaded.doc.at(["policy", "priority_tier"]).problem("R50", *unknown)
        for loaded in profiles
        if (unknown := tiers.unknown(loaded.profile.policy.priority_tier))
    ]
    if problems:
        raise InputError(problems)
