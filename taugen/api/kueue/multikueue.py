"""MultiKueueConfig and MultiKueueCluster: a manager's workers and how it reaches each (§11).

The CEL rules (a cluster listed once; exactly one of kubeConfig and clusterProfileRef) are the
API server's, checked by `taugen validate` from the bundled CRDs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import KueueModel

Name = Annotated[StrictStr, Field(min_length=1, max_length=256)]


class MultiKueueConfigSpec(KueueModel):
    """The workers, most preferred first (Kueue's Incremental dispatcher nominates in order)."""

    clusters: Annotated[list[Annotated[StrictStr, Field(max_length=256)]], Field(min_length=1, max_length=20)]
    quota_management: Literal["Manual", "Automated"] | None = None


class MultiKueueConfig(KueueObject):
    """Named by a MultiKueue AdmissionCheck's parameters."""

    kind: Literal["MultiKueueConfig"]
    spec: MultiKueueConfigSpec | None = None


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


class MultiKueueCluster(KueueObject):
    """One worker the manager dispatches to."""

    kind: Literal["MultiKueueCluster"]
    spec: MultiKueueClusterSpec | None = None
