"""ResourceFlavor: the node labels, taints and tolerations that make up one kind of capacity."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import DNSSubdomain, Int64, KueueModel, Timestamp

MAX_NODE_LABELS = 8
MAX_TAINTS = 8
MAX_TOLERATIONS = 8


class Taint(KueueModel):
    """A taint on the flavor's nodes; a workload must tolerate it to be admitted on the flavor.

    The effect is a plain string here: the CRD checks its values (NoSchedule, PreferNoSchedule,
    NoExecute) with a CEL rule, which a JSON Schema does not carry.
    """

    key: StrictStr
    effect: StrictStr
    value: StrictStr | None = None
    time_added: Timestamp | None = None


class Toleration(KueueModel):
    """A toleration added to the pods of workloads admitted on the flavor (CEL rules as for Taint)."""

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


class ResourceFlavor(KueueObject):
    """One kind of capacity a ClusterQueue assigns quota to."""

    kind: Literal["ResourceFlavor"]
    spec: ResourceFlavorSpec | None = None
