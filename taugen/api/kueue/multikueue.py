"""MultiKueueConfig and MultiKueueCluster: a manager's workers and how it reaches each (§11).

The CRDs' CEL rules (a cluster listed once; exactly one of kubeConfig and clusterProfileRef) are
taugen's checks `unique-clusters` and `cluster-source` (api/rules.py) when no CRD is given.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import KueueModel
from taugen.api.rules import Breach, Json, ObjectCheck, repeats

Name = Annotated[StrictStr, Field(min_length=1, max_length=256)]


class MultiKueueConfigSpec(KueueModel):
    """The workers, most preferred first (Kueue's Incremental dispatcher nominates in order)."""

    clusters: Annotated[list[Annotated[StrictStr, Field(max_length=256)]], Field(min_length=1, max_length=20)]
    quota_management: Literal["Manual", "Automated"] | None = None


def _unique(spec: Json) -> Iterator[Breach]:
    found = spec.get("clusters")
    clusters: list[object] = found if isinstance(found, list) else []
    for index in repeats(clusters):
        yield Breach(("clusters", index), f"cluster {clusters[index]} is already listed")


class MultiKueueConfig(KueueObject):
    """Named by a MultiKueue AdmissionCheck's parameters."""

    kind: Literal["MultiKueueConfig"]
    spec: MultiKueueConfigSpec | None = None

    checks: ClassVar[tuple[ObjectCheck, ...]] = (
        ObjectCheck("unique-clusters", "spec", _unique, "list each worker once"),
    )


class KubeConfig(KueueModel):
    """Secret: the Secret's name in Kueue's namespace (key `kubeconfig`); Path: a file (development)."""

    location: Name
    location_type: Literal["Secret", "Path"] | None = None


class ClusterProfileRef(KueueModel):
    name: Name


class ClusterSource(KueueModel):
    kube_config: KubeConfig | None = None
    cluster_profile_ref: ClusterProfileRef | None = None


class MultiKueueClusterSpec(KueueModel):
    cluster_source: ClusterSource


SOURCES = ("kubeConfig", "clusterProfileRef")


def _one_source(source: Json) -> Iterator[Breach]:
    given = [key for key in SOURCES if key in source]
    if len(given) != 1:
        said = "both a kubeConfig and" if given else "neither a kubeConfig nor"
        yield Breach((), f"clusterSource gives {said} a clusterProfileRef: a worker is reached by one")


class MultiKueueCluster(KueueObject):
    """One worker the manager dispatches to."""

    kind: Literal["MultiKueueCluster"]
    spec: MultiKueueClusterSpec | None = None

    checks: ClassVar[tuple[ObjectCheck, ...]] = (
        ObjectCheck(
            "cluster-source",
            "spec.clusterSource",
            _one_source,
            "keep one of kubeConfig and clusterProfileRef",
        ),
    )
