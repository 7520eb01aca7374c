"""ResourceFlavor: the node labels, taints and tolerations that make up one kind of capacity."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import DNSSubdomain, Int64, KueueModel, Timestamp
from taugen.api.rules import Breach, ChangeCheck, Json, ObjectCheck, text

MAX_NODE_LABELS = 8
MAX_TAINTS = 8
MAX_TOLERATIONS = 8


class Taint(KueueModel):
    """A taint on the flavor's nodes; a workload must tolerate it to be admitted on the flavor.

    The effect is a plain string here: the CRD checks its values (NoSchedule, PreferNoSchedule,
    NoExecute) with a CEL rule, which a JSON Schema does not carry (taugen's: `taint-effect`).
    """

    key: StrictStr
    effect: StrictStr
    value: StrictStr | None = None
    time_added: Timestamp | None = None


class Toleration(KueueModel):
    """A toleration added to the pods of workloads admitted on the flavor (CEL rules as for Taint:
    `TOLERATION_CHECKS`)."""

    key: StrictStr | None = None
    operator: StrictStr | None = None
    value: StrictStr | None = None
    effect: StrictStr | None = None
    toleration_seconds: Int64 | None = None


class ResourceFlavorSpec(KueueModel):
    """How to find and place on the flavor's nodes."""

    node_labels: Annotated[dict[str, StrictStr] | None, Field(max_length=MAX_NODE_LABELS)] = None
    node_taints: Annotated[list[Taint] | None, Field(max_length=MAX_TAINTS)] = None
    tolerations: Annotated[list[Toleration] | None, Field(max_length=MAX_TOLERATIONS)] = None
    topology_name: DNSSubdomain | None = Field(
        default=None, description="The Topology for topology-aware scheduling on this flavor."
    )


EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
OPERATORS = ("Equal", "Exists")
EFFECT_HINT = f"use one of {', '.join(EFFECTS)}"


def _tas_labels(spec: Json) -> Iterator[Breach]:
    labels = spec.get("nodeLabels")
    if "topologyName" in spec and (labels is None or labels == {}):
        at = ("nodeLabels",) if "nodeLabels" in spec else ("topologyName",)
        yield Breach(at, "a flavor with a topologyName needs at least one nodeLabel")


def _effect(item: Json) -> Iterator[Breach]:
    effect = text(item, "effect")
    if effect is not None and effect not in EFFECTS:
        yield Breach(("effect",), f"effect {effect!r} is not a taint effect")


def _operator(item: Json) -> Iterator[Breach]:
    operator = text(item, "operator")
    if operator is not None and operator not in OPERATORS:
        yield Breach(("operator",), f"operator {operator!r} is neither Equal nor Exists")


def _keyless(item: Json) -> Iterator[Breach]:
    operator = item.get("operator")
    if "key" not in item and operator != "Exists" and isinstance(operator, str | None):
        at = ("operator",) if "operator" in item else ()
        yield Breach(at, "a toleration without a key matches every taint: its operator must be Exists")


def _value(item: Json) -> Iterator[Breach]:
    if item.get("operator") == "Exists" and "value" in item:
        yield Breach(("value",), "an Exists toleration matches any value: it takes none")


def _seconds(item: Json) -> Iterator[Breach]:
    effect = item.get("effect")
    if "tolerationSeconds" in item and effect != "NoExecute" and isinstance(effect, str | None):
        yield Breach(("tolerationSeconds",), "tolerationSeconds bounds a NoExecute toleration only")


TOLERATIONS = "spec.tolerations[]"
FLAVOR_CHECKS = (
    ObjectCheck("tas-node-labels", "spec", _tas_labels, "add the node labels that select the flavor's nodes"),
    ObjectCheck("taint-effect", "spec.nodeTaints[]", _effect, EFFECT_HINT),
    ObjectCheck("toleration-key", TOLERATIONS, _keyless, "give the taint's key, or use operator: Exists"),
    ObjectCheck("toleration-operator", TOLERATIONS, _operator, "use Equal (with a value) or Exists"),
    ObjectCheck("toleration-value", TOLERATIONS, _value, "drop the value, or use operator: Equal"),
    ObjectCheck(
        "toleration-seconds", TOLERATIONS, _seconds, "set effect: NoExecute, or drop tolerationSeconds"
    ),
    ObjectCheck("toleration-effect", TOLERATIONS, _effect, EFFECT_HINT),
)
FIXED_WITH_TOPOLOGY = ("topologyName", "nodeLabels", "tolerations")


def _tas_fixed(old: Json, new: Json) -> Iterator[Breach]:
    """Once the flavor in the cluster has a topologyName, these stay as they are (set or not)."""
    if "topologyName" in old:
        for key in FIXED_WITH_TOPOLOGY:
            if old.get(key) != new.get(key):
                yield Breach((key,), f"{key} cannot change: the flavor in the cluster has a topologyName")


class ResourceFlavor(KueueObject):
    """One kind of capacity a ClusterQueue assigns quota to."""

    kind: Literal["ResourceFlavor"]
    spec: ResourceFlavorSpec | None = None

    checks: ClassVar[tuple[ObjectCheck, ...]] = FLAVOR_CHECKS
    change_checks: ClassVar[tuple[ChangeCheck, ...]] = (ChangeCheck("tas-flavor-fixed", "spec", _tas_fixed),)
