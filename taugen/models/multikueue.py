"""The project's `multikueue:` block: a Kueue manager cluster in front of worker clusters (§11).

What is checked here needs only the block; what needs the clusters it names (a worker that is
no cluster of the project, the manager listed as a worker, workers whose queues differ: M3) is
checked where the project file's positions are known (taugen/load/fleet.py).
"""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import Field, model_validator

from taugen.models.base import DNSLabel, DNSSubdomain, StrictModel, invalid

MAX_WORKERS = 20  # Kueue v0.19.2: MultiKueueConfig.spec.clusters has maxItems 20
SECRET_SUFFIX = "-kubeconfig"
SecretName = Annotated[DNSSubdomain, Field(max_length=256)]  # MultiKueueCluster location: <= 256


class MultiKueue(StrictModel):
    manager: DNSLabel = Field(
        description="The cluster of this project that runs the MultiKueue manager; its inventory "
        "may hold no GPU node (M2)"
    )
    workers: list[DNSLabel] = Field(
        min_length=1,
        max_length=MAX_WORKERS,
        description="Clusters of this project that run the workloads, most preferred first: the "
        "MultiKueueConfig lists them in this order (M1, M4)",
    )
    kubeconfigSecrets: dict[DNSLabel, SecretName] = Field(
        default_factory=dict,
        description="Per worker, the name of the Secret in kueue-system whose key `kubeconfig` "
        "reaches it (default <worker>-kubeconfig); taugen writes only the name, never the Secret (M1)",
    )

    @model_validator(mode="after")
    def _unique_workers(self) -> Self:
        twice = sorted({w for w in self.workers if self.workers.count(w) > 1})
        if twice:
            raise invalid(
                f"worker {twice[0]} is listed twice",
                "list each worker once: Kueue refuses a MultiKueueConfig with a cluster twice",
                rule="M1",
            )
        return self

    def secret(self, worker: str) -> str:
        """M1: the Secret whose `kubeconfig` key the MultiKueueCluster of `worker` names."""
        return self.kubeconfigSecrets.get(worker, f"{worker}{SECRET_SUFFIX}")
