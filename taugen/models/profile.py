"""Workload profiles (SPEC §1.4)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Discriminator, Field, GetJsonSchemaHandler, Tag, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from taugen.models.base import API_VERSION, DNSLabel, DNSSubdomain, StrictModel, invalid
from taugen.models.base import Metadata as Metadata
from taugen.models.tiers import DEFAULT_TIER, TierName


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


class LevelRequest(StrictModel):
    """R43: a level the cluster declares (`topology.levels`), required or preferred by name."""

    required: DNSLabel | None = Field(default=None, description="Every pod in one domain of this level")
    preferred: DNSLabel | None = Field(
        default=None, description="One domain of this level if one holds the run, else wider (S3)"
    )

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.required is None) == (self.preferred is None):
            raise invalid(
                "a level placement names one level, required or preferred",
                "write {required: rack} or {preferred: rack}",
                rule="R43",
            )
        return self

    @property
    def name(self) -> str:
        return self.required or self.preferred or ""

    def __str__(self) -> str:
        return f"required {self.required}" if self.required else f"preferred {self.preferred}"


def _form(value: object) -> str:
    return "[level]" if isinstance(value, dict | LevelRequest) else "[placement]"


class _SchemaByForm:
    """The JSON Schema: if a string then the placements' enum, else a level request; unlike a
    oneOf, a validator then reports the chosen form's own error ("is not one of [...]")."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        placement, level = handler(schema)["oneOf"]
        return {"if": {"type": "string"}, "then": placement, "else": level}


# A contract placement (a string) or a declared level (a mapping): each form reports its own errors
Topology = Annotated[
    Annotated[ProfileTopology, Tag("[placement]")] | Annotated[LevelRequest, Tag("[level]")],
    Discriminator(_form),
    _SchemaByForm(),
]


class Policy(StrictModel):
    priority_tier: TierName = Field(
        default=DEFAULT_TIER,
        description="default or priority (TauGrid's), or a tier of the project's priorityTiers (R50)",
    )
    gpu_class: str | None = Field(default=None, description="Omit for CPU-only work")
    topology: Topology = ProfileTopology.UNCONSTRAINED


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
