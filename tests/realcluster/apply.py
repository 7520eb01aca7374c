"""A compiled tree on the real API server as Argo CD and Flux apply it (issue 31): each
kustomize root rendered with the built `kustomize build`, then server-side apply of every object
(field manager taugen, force), first with dryRun=All, then for real, in sync-wave order. A
refusal is kept as data (identity, status, message), never raised."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

import yaml

from tests.realcluster.kube import Kube, Object, refusal

WAVE = "argocd.argoproj.io/sync-wave"
WORKERS = 8  # requests in flight within one wave


@dataclass(frozen=True)
class Refusal:
    identity: str
    answer: str  # status code and the server's message


def identity(obj: Object) -> str:
    meta = obj["metadata"]
    where = f"{meta['namespace']}/" if meta.get("namespace") else ""
    return f"{obj['kind']} {where}{meta['name']}"


def kustomize_roots(folder: Path) -> list[Path]:
    """The folder and each of its node-label shards (nodes/<shard>/: roots of their own, G1)."""
    return [folder, *sorted(k.parent for k in folder.glob("nodes/*/kustomization.yaml"))]


def render(kustomize: str, folder: Path) -> list[Object]:
    """`kustomize build` of every root of the tree, its objects in order."""
    found: list[Object] = []
    for root in kustomize_roots(folder):
        done = subprocess.run([kustomize, "build", str(root)], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"kustomize build {root}: {done.stderr[-2000:]}"
        found += [d for d in yaml.load_all(done.stdout, Loader=yaml.CSafeLoader) if d]
    return found


def wave(obj: Object) -> int:
    return int(((obj["metadata"].get("annotations") or {}).get(WAVE)) or 0)


def apply_all(
    kube: Kube, objects: Iterable[Object], *, dry_run: bool
) -> tuple[dict[str, Object], list[Refusal]]:
    """Apply wave by wave (lowest first, as Argo CD syncs); the server's answers by identity."""
    answers: dict[str, Object] = {}
    refusals: list[Refusal] = []
    ordered = sorted(objects, key=wave)
    with ThreadPoolExecutor(WORKERS) as pool:
        for _, group in groupby(ordered, key=wave):
            batch = list(group)
            for obj, answer in zip(
                batch, pool.map(lambda o: kube.apply(o, dry_run=dry_run), batch), strict=True
            ):
                if answer.is_success:
                    answers[identity(obj)] = answer.json()
                else:
                    refusals.append(Refusal(identity(obj), refusal(answer)))
    return answers, refusals


def live(kube: Kube, objects: Iterable[Object]) -> dict[str, Object]:
    """The live objects of these identities, one LIST per kind (a tree has 10^3 Nodes)."""
    wanted = {identity(o): o for o in objects}
    found: dict[str, Object] = {}
    for api_version, kind in sorted({(o["apiVersion"], o["kind"]) for o in wanted.values()}):
        listed = Kube.expect(kube.http.get(kube.resource(api_version, kind).path()))
        for item in listed["items"]:
            key = identity({"kind": kind, "metadata": item["metadata"]})
            if key in wanted:
                found[key] = item | {"apiVersion": api_version, "kind": kind}
    return found


def settled(kube: Kube, objects: list[Object], timeout: float = 60.0) -> dict[str, Object]:
    """The live objects once no one writes them any more (Kueue adds finalizers and status):
    two reads a second apart with the same resourceVersions."""
    before = live(kube, objects)
    deadline = time.monotonic() + timeout
    while True:
        time.sleep(1.0)
        now = live(kube, objects)
        if _versions(now) == _versions(before) or time.monotonic() > deadline:
            return now
        before = now


def _versions(objects: dict[str, Object]) -> dict[str, str]:
    return {key: obj["metadata"]["resourceVersion"] for key, obj in objects.items()}


def changed_by_apply(before: dict[str, Object], after: dict[str, Object]) -> list[str]:
    """Identities the second apply wrote: a new resourceVersion and a new taugen entry in
    managedFields (a new version with taugen's entry unchanged is another writer's, Kueue's)."""
    return sorted(
        key
        for key, obj in after.items()
        if key in before
        and obj["metadata"]["resourceVersion"] != before[key]["metadata"]["resourceVersion"]
        and _taugen_entry(obj) != _taugen_entry(before[key])
    )


def _taugen_entry(obj: Object) -> Object | None:
    entries = obj["metadata"].get("managedFields") or []
    return next((e for e in entries if e.get("manager") == "taugen" and e.get("operation") == "Apply"), None)
