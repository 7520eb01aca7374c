"""The lock `taugen.lock` (SPEC §5): observedAt, inputs digest and GPU quota high-water marks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, Field, StrictInt

from taugen.errors import InputError
from taugen.load.document import load_one
from taugen.load.validate import validate
from taugen.models.base import API_VERSION, StrictModel

RULE = "lock"
HINT = "the lock is written by taugen: restore it from Git, or delete it to start over"


class ClusterLock(StrictModel):
    observedAt: AwareDatetime
    inputsDigest: str
    treeDigest: str = Field(description="sha256 over the cluster's output files")
    gpuQuota: dict[str, StrictInt] = Field(default_factory=dict, description="R26 high-water marks")


class Lock(StrictModel):
    apiVersion: Literal["taugen.tau.azure.com/v1alpha1"] = API_VERSION
    kind: Literal["Lock"] = "Lock"
    clusters: dict[str, ClusterLock] = Field(default_factory=dict)


def read_lock(path: Path) -> Lock:
    """The committed lock, or an empty one when there is none yet."""
    if not path.exists():
        return Lock()
    try:
        return validate(Lock, load_one(path), RULE)
    except InputError as err:
        raise InputError([replace(p, hint=HINT) for p in err.problems]) from None


def lock_bytes(lock: Lock) -> bytes:
    """Deterministic JSON: sorted keys, two-space indent, final newline."""
    data = lock.model_dump(mode="json")
    for entry in data["clusters"].values():
        entry["observedAt"] = _utc(entry["observedAt"])
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


def _utc(text: str) -> str:
    return text.replace("+00:00", "Z")
