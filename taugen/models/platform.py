"""What a cluster's platform decides about its nodes (SPEC §13): topology sources and GPU taints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from taugen.core.names import label_key_error, label_value_error
from taugen.models.base import StrictModel, invalid

__all__ = ["DEFAULT_GPU_TAINTS", "PRESETS", "GpuTaint", "TopologyLabels", "TopologyPreset", "taint_text"]


def _label_key(value: object) -> object:
    if isinstance(value, str) and (why := label_key_error(value)):
        raise invalid(
            f"{value!r} is not a label key: {why}",
            "write a node label key such as topology.k8s.aws/network-node-layer-3",
        )
    return value


def _label_value(value: object) -> object:
    if isinstance(value, str) and (why := label_value_error(value)):
        raise invalid(f"taint value {value!r} {why}", "a taint value follows the label value rules")
    return value


NodeLabelKey = Annotated[str, BeforeValidator(_label_key)]
Effect = Literal["NoSchedule", "PreferNoSchedule", "NoExecute"]

# R39 (issue 32): taints that say a node is broken, cordoned or leaving. Kubernetes sets them under
# its own namespaces (node.kubernetes.io/not-ready, /unreachable, /unschedulable, …,
# node.cloudprovider.kubernetes.io/shutdown), autoscalers under theirs. A GPU taint is tolerated
# by every run taugen renders and by every flavor: naming one of these would keep GPU jobs on
# nodes Kubernetes is draining.
LIFECYCLE_NAMESPACES = ("kubernetes.io", "k8s.io", "karpenter.sh")
LIFECYCLE_KEYS = frozenset({"ToBeDeletedByClusterAutoscaler", "DeletionCandidateOfClusterAutoscaler"})


def _gpu_taint_key(value: object) -> object:
    if not isinstance(value, str):
        return value
    prefix = value.rpartition("/")[0]
    owner = next((n for n in LIFECYCLE_NAMESPACES if prefix == n or prefix.endswith("." + n)), None)
    if owner is not None or value in LIFECYCLE_KEYS:
        raise invalid(
            f"taint {value} is one Kubernetes or an autoscaler sets on a broken, cordoned or leaving "
            "node: every GPU run would tolerate it and stay on such nodes",
            "name the taint your GPU nodes are created with (e.g. sku=gpu or nvidia.com/gpu)",
            rule="R39",
        )
    return value


class GpuTaint(StrictModel):
    """A taint the cluster's GPU nodes carry (R39); flavors and rendered runs use it."""

    key: Annotated[NodeLabelKey, BeforeValidator(_gpu_taint_key)]
    value: Annotated[str, BeforeValidator(_label_value)] = ""
    effect: Effect


def taint_text(taint: GpuTaint) -> str:
    """`key=value:Effect`, as kubectl prints a taint (`key:Effect` without a value)."""
    return f"{taint.key}={taint.value}:{taint.effect}" if taint.value else f"{taint.key}:{taint.effect}"


DEFAULT_GPU_TAINTS = (GpuTaint(key="sku", value="gpu", effect="NoSchedule"),)  # R24


class TopologyLabels(StrictModel):
    """R37: the node labels a domain is read from, in order: the first key a node carries wins."""

    networkDomain: list[NodeLabelKey] = Field(
        default_factory=list, description="Keys naming a shared network fabric (else a singleton, R14)"
    )
    acceleratorDomain: list[NodeLabelKey] = Field(
        default_factory=list, description="Keys naming an NVLink island (else a singleton, R14)"
    )


TopologyPreset = Literal["default", "eks", "gke", "nvidia"]

# R37: the provider's documentation each preset comes from is named in docs/inventory.md.
_NVLINK = ("nvidia.com/gpu.clique",)  # NVIDIA GPU operator / DRA driver: the NVLink clique (GB200)
PRESETS: Mapping[TopologyPreset, TopologyLabels] = {
    "default": TopologyLabels(
        networkDomain=["net.unbounded-cloud.io/network-domain"],
        acceleratorDomain=["net.unbounded-cloud.io/accelerator-domain"],
    ),
    "eks": TopologyLabels(  # the narrowest layer a node carries: nodes sharing it are closest
        networkDomain=[f"topology.k8s.aws/network-node-layer-{n}" for n in (3, 2, 1)],
        acceleratorDomain=list(_NVLINK),
    ),
    "gke": TopologyLabels(
        networkDomain=["cloud.google.com/gce-topology-subblock", "cloud.google.com/gce-topology-block"],
        acceleratorDomain=[*_NVLINK, "cloud.google.com/gce-topology-host"],
    ),
    "nvidia": TopologyLabels(
        networkDomain=["net.unbounded-cloud.io/network-domain", "network.topology.nvidia.com/spine"],
        acceleratorDomain=[*_NVLINK, "network.topology.nvidia.com/accelerator"],
    ),
}
