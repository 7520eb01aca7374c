"""LocalQueue: the namespaced queue users submit workloads to."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from taugen.api.kueue.common import FairSharing, KueueObject, StopPolicy
from taugen.api.kueue.meta import DNSSubdomain, KueueModel, ObjectMeta
from taugen.api.rules import ChangeCheck, fixed


class LocalQueueSpec(KueueModel):
    """The ClusterQueue a LocalQueue submits to, and its own policies."""

    cluster_queue: DNSSubdomain | None = None
    stop_policy: StopPolicy = "None"
    fair_sharing: FairSharing | None = Field(
        default=None, description="The queue's share under admission fair sharing."
    )


class LocalQueue(KueueObject):
    """A namespace's entry point to a ClusterQueue."""

    kind: Literal["LocalQueue"]
    metadata: ObjectMeta
    spec: LocalQueueSpec | None = None

    change_checks: ClassVar[tuple[ChangeCheck, ...]] = (
        ChangeCheck(
            "immutable-field",
            "spec",
            fixed("clusterQueue", "a LocalQueue's clusterQueue"),
        ),
    )
