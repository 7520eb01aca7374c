"""What a cluster's platform decides about its nodes (SPEC §13): topology sources and GPU taints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from taugen.models.base import StrictModel, invalid
from taugen.names import label_key_error, label_value_error

__all__ = ["DEFAULT_GPU_TAINTS", "PRESETS", "Taint", "TopologyLabels", "TopologyPreset", "taint_text"]


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


class Taint(StrictModel):
    """A taint the cluster's GPU nodes carry (R39); flavors and rendered runs use it."""

    key: NodeLabelKey
    value: Annotated[str, BeforeValidator(_label_value)] = ""
    effect: Effect


def taint_text(taint: Taint) -> str:
    """`key=value:Effect`, as kubectl prints a taint (`key:Effect` without a value)."""
    return f"{taint.key}={taint.value}:{taint.effect}" if taint.value else f"{taint.key}:{taint.effect}"


DEFAULT_GPU_TAINTS = (Taint(key="sku", value="gpu", effect="NoSchedule"),)  # R24


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
