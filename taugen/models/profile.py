"""Workload profiles (SPEC §1.4)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from taugen.models.base import API_VERSION, DNSSubdomain, StrictModel
from taugen.models.base import Metadata as Metadata


class ProfileTopology(StrEnum):
    UNCONSTRAINED = "unconstrained"
    SAME_HOST = "same-host"
    SAME_ACCELERATOR_DOMAIN = "same-accelerator-domain"
    SAME_NETWORK_DOMAIN = "same-network-domain"
    SAME_SITE = "same-site"
    # Kueue's podset-preferred-topology: one domain of the level if one holds the run, else
    # the next wider level, and at the widest several domains (S3)
    PREFER_HOST = "prefer-host"
    PREFER_ACCELERATOR_DOMAIN = "prefer-accelerator-domain"
    PREFER_NETWORK_DOMAIN = "prefer-network-domain"
    PREFER_SITE = "prefer-site"


class PriorityTier(StrEnum):
    DEFAULT = "default"
    PRIORITY = "priority"


class Policy(StrictModel):
    priority_tier: PriorityTier = PriorityTier.DEFAULT
    gpu_class: str | None = Field(default=None, description="Omit for CPU-only work")
    topology: ProfileTopology = ProfileTopology.UNCONSTRAINED


class Deprecation(StrictModel):
    replacedBy: DNSSubdomain = Field(description="The profile that replaces this one")


class WorkloadProfile(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["WorkloadProfile"]
    metadata: Metadata
    description: str | None = None
    policy: Policy
    deprecated: Deprecation | None = Field(
        default=None, description="Profile migration: rendering warns and names the replacement"
    )
