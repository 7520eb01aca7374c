"""A run (SPEC §7): a tenant's job, placed by a workload profile's policy."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, StrictInt, StrictStr

from taugen.models.base import API_VERSION, DNSLabel, DNSSubdomain, QuantityField, StrictModel
from taugen.models.profile import PriorityTier, Topology

MAX_WORKERS = 100_000  # Kubernetes: an Indexed Job has at most 100000 completions


class Launcher(StrEnum):
    TORCHRUN = "torchrun"
    NONE = "none"


class RunMetadata(StrictModel):
    name: DNSLabel = Field(description="The Job's name; ranks are the pods <name>-<index>")
    namespace: DNSLabel = Field(description="A tenant namespace of the cluster")


class RunPolicy(StrictModel):
    """Overrides of the profile's policy: a field left out keeps the profile's value."""

    priority_tier: PriorityTier | None = Field(default=None, description="Changes only the priority pair")
    gpu_class: str | None = Field(default=None, description="Hardware only (R3)")
    topology: Topology | None = None


class Run(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Run"]
    metadata: RunMetadata
    cluster: DNSLabel | None = Field(default=None, description="Optional when the project has one cluster")
    profile: DNSSubdomain
    policy: RunPolicy = RunPolicy()
    workers: Annotated[StrictInt, Field(ge=1, le=MAX_WORKERS)] = Field(
        default=1, description="Pods (ranks) of the Indexed Job"
    )
    resources: dict[str, QuantityField] = Field(min_length=1, description="Requests per worker")
    launcher: Launcher = Launcher.NONE
    image: StrictStr = Field(min_length=1)
    command: list[StrictStr] = Field(min_length=1)
