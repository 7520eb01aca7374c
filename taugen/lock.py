"""The lock `taugen.lock` (SPEC §5): observedAt, inputs digest and GPU quota high-water marks."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

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
    sourcesDigest: str | None = Field(
        default=None, description="sha256 over taugen and the files compiled from (uptodate.py)"
    )
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


def tree_digest(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    return "sha256:" + digest.hexdigest()


def same_lock(old: bytes | None, new: bytes) -> bool:
    """Equal but for sourcesDigest, the cache key over taugen's and the inputs' bytes: a lock
    written by another taugen, or from reordered input, still describes the same tree."""
    if old is None:
        return False
    try:
        return bool(_without_sources(json.loads(old)) == _without_sources(json.loads(new)))
    except (ValueError, AttributeError, TypeError):  # not the JSON taugen writes
        return False


def _without_sources(lock: Any) -> Any:
    for entry in lock.get("clusters", {}).values():
        entry.pop("sourcesDigest", None)
    return lock
