"""The base of every Kueue API model, and Kubernetes object metadata as a manifest writes it."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictStr,
    WithJsonSchema,
    model_validator,
)
from pydantic.alias_generators import to_camel

from taugen.api.rules import ChangeCheck, ObjectCheck
from taugen.core.names import (
    DNS1123_LABEL_PATTERN,
    DNS1123_SUBDOMAIN,
    DNS1123_SUBDOMAIN_PATTERN,
    LABEL_VALUE_PATTERN,
)

LABEL_PREFIX = rf"({DNS1123_SUBDOMAIN}/)?"
# apimachinery's qualified name: an optional DNS subdomain prefix and a 1-63 character name.
LABEL_KEY_PATTERN = rf"^{LABEL_PREFIX}[A-Za-z0-9]([-A-Za-z0-9_.]{{0,61}}[A-Za-z0-9])?$"

Int32 = Annotated[int, Strict(), Field(ge=-(2**31), le=2**31 - 1)]
Int64 = Annotated[int, Strict(), Field(ge=-(2**63), le=2**63 - 1)]


def _timestamp(value: Any) -> Any:
    if isinstance(value, str | datetime):
        return value
    raise ValueError("a timestamp is an RFC 3339 string such as 2025-01-02T03:04:05Z")


# YAML may give a datetime or a string; pydantic's lax mode would also take a number.
Timestamp = Annotated[datetime, Strict(False), BeforeValidator(_timestamp)]
DNSSubdomain = Annotated[StrictStr, Field(max_length=253, pattern=DNS1123_SUBDOMAIN_PATTERN)]
DNSLabel = Annotated[StrictStr, Field(min_length=1, max_length=63, pattern=DNS1123_LABEL_PATTERN)]
LabelKey = Annotated[StrictStr, Field(max_length=317, pattern=LABEL_KEY_PATTERN)]
LabelValue = Annotated[StrictStr, Field(max_length=63, pattern=LABEL_VALUE_PATTERN)]
_KEY_SCHEMA = {"maxLength": 317, "pattern": LABEL_KEY_PATTERN}
# pydantic writes a key pattern as patternProperties, which lets a non-matching key through.
Labels = Annotated[
    dict[LabelKey, LabelValue],
    WithJsonSchema(
        {
            "type": "object",
            "propertyNames": _KEY_SCHEMA,
            "additionalProperties": {"type": "string", "maxLength": 63, "pattern": LABEL_VALUE_PATTERN},
        }
    ),
]
Annotations = Annotated[
    dict[LabelKey, StrictStr],
    WithJsonSchema(
        {"type": "object", "propertyNames": _KEY_SCHEMA, "additionalProperties": {"type": "string"}}
    ),
]


class KueueModel(BaseModel):
    """Closed like the API server's pruning makes it: an unknown field is an error, not a no-op.

    Fields are snake_case in Python and camelCase on the wire. An optional field may be left out
    but not written as null (the generated schema has no null either), except the fields a
    subclass lists in `nullable`.
    """

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, alias_generator=to_camel, defer_build=True
    )
    nullable: ClassVar[frozenset[str]] = frozenset()
    # A kind's upstream CEL rules as taugen's own checks (api/rules.py), on its wire form
    checks: ClassVar[tuple[ObjectCheck, ...]] = ()
    change_checks: ClassVar[tuple[ChangeCheck, ...]] = ()  # on an update: old -> new

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict):
            nulls = sorted(str(k) for k, v in data.items() if v is None and k not in cls.nullable)
            if nulls:
                raise ValueError(f"null given for {', '.join(nulls)}: leave an unset field out")
        return data


class OwnerReference(KueueModel):
    """The object that owns this one (garbage collection)."""

    api_version: StrictStr
    kind: StrictStr
    name: StrictStr
    uid: StrictStr
    controller: StrictBool | None = None
    block_owner_deletion: StrictBool | None = None


class ClusterObjectMeta(KueueModel):
    """Metadata of a cluster-scoped object: a namespace here would be a mistake, so none is allowed.

    The API server needs a name or a generateName; the rest are what `kubectl get -o yaml`
    prints and may be round-tripped into a manifest.
    """

    model_config = ConfigDict(
        json_schema_extra={"anyOf": [{"required": ["name"]}, {"required": ["generateName"]}]}
    )
    nullable: ClassVar[frozenset[str]] = frozenset({"creationTimestamp"})  # kubectl prints null

    name: DNSSubdomain | None = Field(default=None, min_length=1)
    generate_name: StrictStr | None = Field(default=None, max_length=253)
    labels: Labels | None = None
    annotations: Annotations | None = None
    finalizers: list[StrictStr] | None = None
    owner_references: list[OwnerReference] | None = None
    uid: StrictStr | None = None
    resource_version: StrictStr | None = None
    generation: Int64 | None = None
    creation_timestamp: Timestamp | None = Field(default=None, json_schema_extra={"type": ["string", "null"]})
    deletion_timestamp: Timestamp | None = None
    deletion_grace_period_seconds: Int64 | None = None
    managed_fields: list[dict[str, Any]] | None = Field(
        default=None, description="Server-side apply bookkeeping; not checked."
    )

    @model_validator(mode="after")
    def _named(self) -> Self:
        if self.name is None and self.generate_name is None:
            raise ValueError("an object needs a name (or a generateName)")
        return self


class ObjectMeta(ClusterObjectMeta):
    """Metadata of a namespaced object. The namespace may be left to kubectl -n or kustomize."""

    namespace: DNSLabel | None = None
