"""The lock's model (SPEC §5): what `taugen.lock` holds per cluster (read and written in taugen/lock/)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AwareDatetime, Field, StrictInt, field_validator

from taugen.core.names import dns1123_label_error, gpu_class_name_error
from taugen.models.base import API_VERSION, StrictModel

__all__ = ["QUOTA_MAX", "ClusterLock", "Lock"]

QUOTA_MAX = 2**63 - 1  # a Kubernetes quantity's int64 value: nothing larger is a GPU count


def _checked_marks(marks: dict[str, int]) -> dict[str, int]:
    for gpu_class, gpus in marks.items():
        if error := gpu_class_name_error(gpu_class):  # its flavor would be written (R24)
            raise ValueError(f"gpu-class {gpu_class!r} {error}")
        if not 0 <= gpus <= QUOTA_MAX:
            raise ValueError(f"GPU quota {gpus} of {gpu_class} is not between 0 and {QUOTA_MAX}")
    return marks


class ClusterLock(StrictModel):
    observedAt: AwareDatetime
    inputsDigest: str = Field(description="sha256 of the inputs the profile catalog was resolved from (R30)")
    gpuQuota: dict[str, StrictInt] = Field(default_factory=dict, description="R26 high-water marks")
    guaranteed: dict[str, dict[str, StrictInt]] = Field(
        default_factory=dict,
        description="T6: namespace -> gpu-class -> resolved guaranteed GPUs (absent: no guarantee)",
    )
    extraQuota: dict[str, dict[str, Annotated[StrictInt, Field(ge=0, le=QUOTA_MAX)]]] = Field(
        default_factory=dict,
        description="R44: gpu-class -> extra resource -> nominal quota high-water mark (absent: none)",
    )
    gpuSharing: dict[str, Annotated[StrictInt, Field(ge=2)]] = Field(
        default_factory=dict, description="R38: advertised GPUs per physical GPU of each shared class"
    )
    heldAboveInventory: dict[str, Annotated[StrictInt, Field(ge=0, le=QUOTA_MAX)]] = Field(
        default_factory=dict,
        description="issue 34 (7), 36: gpu-class -> the inventory's allocatable GPUs, for each class "
        "whose quota (R26: its high-water mark) is above them (absent: none); diff reads it",
    )
    # Written by taugen 0.1 before R33; read and dropped, never written again.
    treeDigest: str | None = Field(default=None, exclude=True)
    sourcesDigest: str | None = Field(default=None, exclude=True)

    @field_validator("gpuQuota")
    @classmethod
    def _marks(cls, marks: dict[str, int]) -> dict[str, int]:
        return _checked_marks(marks)

    @field_validator("heldAboveInventory")
    @classmethod
    def _held(cls, held: dict[str, int]) -> dict[str, int]:
        return _checked_marks(held)

    @field_validator("extraQuota")
    @classmethod
    def _extra(cls, marks: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        for gpu_class in marks:
            if error := gpu_class_name_error(gpu_class):
                raise ValueError(f"gpu-class {gpu_class!r} {error}")
        return marks

    @field_validator("guaranteed")
    @classmethod
    def _guarantees(cls, guaranteed: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        for namespace, classes in guaranteed.items():
            if error := dns1123_label_error(namespace):
                raise ValueError(f"tenant namespace {namespace!r} {error}")
            _checked_marks(classes)
        return guaranteed


class Lock(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Lock"] = "Lock"
    clusters: dict[str, ClusterLock] = Field(default_factory=dict)

    @field_validator("clusters")
    @classmethod
    def _names(cls, clusters: dict[str, ClusterLock]) -> dict[str, ClusterLock]:
        for name in clusters:  # a key names a folder under out/ that a build may remove
            if error := dns1123_label_error(name):
                raise ValueError(f"cluster name {name!r} {error}")
        return clusters
