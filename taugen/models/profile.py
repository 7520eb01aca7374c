"""Workload profiles (SPEC §1.4)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import (
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    StrictStr,
    Tag,
    field_validator,
    model_validator,
)
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


MAX_FALLBACKS = 63  # R47: with taugrid-default-cpu, Kueue's 64 flavors per resource group

# R47: one class, or an ordered preference (the first the run would rather have)
GpuClasses = Annotated[
    str | Annotated[list[StrictStr], Field(min_length=1, max_length=MAX_FALLBACKS)],
    Field(union_mode="left_to_right"),
]


def no_empty_list(value: object) -> object:
    """R47: an empty list is refused as one error (not one per form of the union)."""
    if value == []:
        raise invalid(
            "gpu_class lists no class",
            "name one class, or list them in order of preference; omit gpu_class for CPU-only work",
            rule="R47",
        )
    return value


def one_or_list(value: str | list[str] | None) -> str | list[str] | None:
    """R47: a list of distinct classes; a list of one is that class (R19/R20 exactly)."""
    if not isinstance(value, list):
        return value
    twice = sorted({c for c in value if value.count(c) > 1})
    if twice:
        raise invalid(
            f"gpu_class lists {', '.join(twice)} twice: the list is an order of preference",
            "list each class once, the preferred first",
            rule="R47",
        )
    return value[0] if len(value) == 1 else value


def classes_of(value: str | list[str] | None) -> tuple[str, ...]:
    """The classes a policy may run on, in its order of preference (R47); () for CPU-only."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class Policy(StrictModel):
    priority_tier: TierName = Field(
        default=DEFAULT_TIER,
        description="default or priority (TauGrid's), or a tier of the project's priorityTiers (R50)",
    )
    gpu_class: GpuClasses | None = Field(
        default=None,
        description="Omit for CPU-only work; a list is an order of preference, the first preferred (R47)",
    )
    topology: Topology = ProfileTopology.UNCONSTRAINED

    _no_empty_list = field_validator("gpu_class", mode="before")(no_empty_list)

    @field_validator("gpu_class")
    @classmethod
    def _one_or_list(cls, value: str | list[str] | None) -> str | list[str] | None:
        return one_or_list(value)

    @property
    def classes(self) -> tuple[str, ...]:
        """R47: the classes in the order of preference; () for CPU-only work."""
        return classes_of(self.gpu_class)

    @property
    def class_text(self) -> str:
        """The class for a message: one name, or "h200-141gb or else h100-80gb" (R47)."""
        return " or else ".join(self.classes)

    @property
    def fallback(self) -> bool:
        """R47: more than one class, so no gpu-class node selector (Kueue picks the flavor)."""
        return len(self.classes) > 1


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
