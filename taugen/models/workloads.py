"""The input of `taugen simulate` (SPEC §9, S1): runs, the pods already running, and events."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, StrictInt, StrictStr, model_validator

from taugen.models.base import (
    API_VERSION,
    DNSLabel,
    DNSSubdomain,
    QuantityField,
    StrictModel,
    Timestamp,
    invalid,
)
from taugen.models.run import Run

Rank = Annotated[StrictInt, Field(ge=0)]


class Admitted(StrictModel):
    """The plan of a run Kueue already admitted: pod index -> host (its TopologyAssignment)."""

    ranks: dict[str, DNSSubdomain] = Field(
        min_length=1, description='Pod index (a string, e.g. "0") -> the node it was planned on'
    )
    at: Timestamp | None = Field(
        default=None,
        description="When Kueue admitted it (QuotaReserved): preemption takes the newest first (T8); "
        "default createdAt",
    )


class WorkloadRun(Run):
    """A Run (§7) as `simulate` reads it: kind, image and command may be left out."""

    kind: Literal["Run"] = "Run"
    image: StrictStr = Field(default="unused-by-simulate", min_length=1)
    command: list[StrictStr] = Field(default=["unused-by-simulate"], min_length=1)
    createdAt: Timestamp = Field(description="When the Workload was created: FIFO order (S2)")
    admitted: Admitted | None = Field(default=None, description="Already admitted with this plan (S1)")

    @model_validator(mode="after")
    def _ranks_exist(self) -> Self:
        if self.admitted is None:
            return self
        pods = {
            "job": self.workers,
            "leaderworkerset": self.replicas * self.size,
            "jobset": sum(job.workers for job in self.job_list()),  # K6: indexed across the pod sets
        }[self.workload]
        wrong = sorted(k for k in self.admitted.ranks if not _rank(k) or int(k) >= pods)
        if wrong:
            raise invalid(
                f"admitted.ranks names {', '.join(wrong)}, but the run has pods 0..{pods - 1}",
                "key each rank by its pod index",
                rule="S1",
            )
        return self


class RunningPod(StrictModel):
    node: DNSSubdomain
    requests: dict[str, QuantityField] = Field(min_length=1)
    run: DNSLabel | None = Field(default=None, description="The run (metadata.name) the pod belongs to")
    rank: Rank | None = Field(default=None, description="Its pod index; needs `run`")

    @model_validator(mode="after")
    def _rank_needs_run(self) -> Self:
        if self.rank is not None and self.run is None:
            raise invalid("a running pod has a rank but no run", "add `run:` naming its run", rule="S1")
        return self


class NodeDown(StrictModel):
    nodeDown: DNSSubdomain = Field(description="The node stops being Ready; its pods are lost (S5)")


class WorkloadSet(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["WorkloadSet"]
    cluster: DNSLabel | None = Field(default=None, description="Optional when the project has one cluster")
    runs: list[WorkloadRun] = Field(default=[], description="Run documents (§7) plus createdAt")
    running: list[RunningPod] = Field(default=[], description="Pods already on nodes")
    events: list[NodeDown] = Field(default=[], description="Applied after admission, in order")


def _rank(key: str) -> bool:
    """A pod index: ASCII digits, few enough for int() (issue 32: its limit is 4,300 digits)."""
    return key.isascii() and key.isdigit() and len(key) <= 18
