"""WorkloadPriorityClass: a named priority for workloads, independent of pod priority."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from taugen.api.kueue.common import KueueObject
from taugen.api.kueue.meta import Int32


class WorkloadPriorityClass(KueueObject):
    """Its value and description sit at the top level, like a PriorityClass's; there is no spec."""

    kind: Literal["WorkloadPriorityClass"]
    value: Int32 = Field(description="The priority workloads of this class get; higher goes first.")
    description: Annotated[StrictStr | None, Field(max_length=2048)] = None
