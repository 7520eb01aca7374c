"""The CRDs the trees need, on the real API server (issue 31): Kueue's own from its module
download (all of config/components/crd/bases/, Workloads included), the others (Argo CD, Flux,
Grove, JobSet, KAI, LeaderWorkerSet, NFD) read from ../shared/crds/ when it is there. Never
copied into the repository."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

from tests.conftest import SHARED
from tests.realcluster.kube import Kube, Object, condition, wait_for

SHARED_CRDS = SHARED / "crds"
ESTABLISHED_SECONDS = 120.0


def crd_files(kueue_crds: Path) -> list[Path]:
    """Kueue's CRD files, then every other project's in ../shared/crds/ (not its Kueue copy)."""
    others = sorted(p for p in SHARED_CRDS.glob("*/*.yaml") if p.parent.name != "kueue")
    return sorted(kueue_crds.glob("*.yaml")) + others


def load_crds(files: list[Path]) -> list[Object]:
    found: list[Object] = []
    for path in files:
        docs = yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        found += [d for d in docs if d and d.get("kind") == "CustomResourceDefinition"]
    return found


def install_crds(kube: Kube, files: list[Path], alive: Callable[[], bool]) -> list[Object]:
    """Create every CRD in `files` (a plain create: server-side apply of a 1.4 MB CRD costs the
    server seconds of managed-fields work), wait until discovery serves each kind, then check
    that each is Established (polling GETs of megabyte CRDs would slow the server down)."""
    crds = load_crds(files)
    for crd in crds:
        Kube.expect(kube.create(crd))
    wait_for("the CRDs served", lambda: not _unserved(kube, crds), ESTABLISHED_SECONDS, alive)
    listed = Kube.expect(kube.http.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"))
    established = {c["metadata"]["name"] for c in listed["items"] if condition(c, "Established")}
    assert {c["metadata"]["name"] for c in crds} <= established
    return crds


def _unserved(kube: Kube, crds: list[Object]) -> list[str]:
    """The CRDs whose kind discovery does not list yet, in any version they serve."""
    missing = []
    for crd in crds:
        spec = crd["spec"]
        for version in (v["name"] for v in spec["versions"] if v.get("served")):
            answer = kube.http.get(f"/apis/{spec['group']}/{version}")
            kinds = {r["kind"] for r in answer.json().get("resources", [])} if answer.is_success else set()
            if spec["names"]["kind"] not in kinds:
                missing.append(f"{spec['names']['kind']}.{spec['group']}/{version}")
    return missing
