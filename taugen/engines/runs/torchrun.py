"""torchrun wiring (§7): static rendezvous on rank 0's stable hostname, node rank from the index.

An Indexed Job with `subdomain` gives pod i the hostname <job>-<i>, resolvable through a
headless Service of that name; rank 0's address is therefore known before any pod starts.
"""

from __future__ import annotations

from typing import Any

from taugen.compile.manifest import object_
from taugen.load.inventory import GPU
from taugen.models.run import Run

PORT = 29500
INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index"
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"  # set on its pods by the Job controller
NODE_RANK = "NODE_RANK"


def nproc_per_node(run: Run) -> int:
    """One process per GPU of the worker; one for CPU-only work."""
    gpus = run.resources.get(GPU)
    return int(gpus.value) if gpus is not None and gpus.value > 0 else 1


def master_address(run: Run) -> str:
    return f"{run.metadata.name}-0.{run.metadata.name}"


def command(run: Run) -> list[str]:
    """torchrun around the run's command (--no-python: the command is run as written)."""
    nproc = f"--nproc-per-node={nproc_per_node(run)}"
    if run.workers == 1:
        return ["torchrun", "--standalone", "--nnodes=1", nproc, "--no-python", *run.command]
    return [
        "torchrun",
        f"--nnodes={run.workers}",
        nproc,
        f"--node-rank=$({NODE_RANK})",
        f"--master-addr={master_address(run)}",
        f"--master-port={PORT}",
        "--no-python",
        *run.command,
    ]


def env(run: Run) -> list[dict[str, Any]]:
    if run.workers == 1:
        return []
    index = f"metadata.annotations['{INDEX_ANNOTATION}']"
    return [{"name": NODE_RANK, "valueFrom": {"fieldRef": {"fieldPath": index}}}]


def service(run: Run) -> dict[str, Any]:
    """The headless Service that gives every rank a stable DNS name (rank 0: the master)."""
    return object_(
        "v1",
        "Service",
        run.metadata.name,
        run.metadata.namespace,
        spec={
            "clusterIP": "None",
            "publishNotReadyAddresses": True,  # ranks resolve each other before they are Ready
            "selector": {JOB_NAME_LABEL: run.metadata.name},
            "ports": [{"name": "rendezvous", "port": PORT, "targetPort": PORT, "protocol": "TCP"}],
        },
    )
