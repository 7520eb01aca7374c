"""One tree through the real API server, start to finish (issue 31): render, the namespaces it
needs and its Nodes created first (a partial Node only labels a Node that exists: G3), a dry
run, the apply, a second apply that must write nothing, what the control plane added, and a
reset so the next tree (another cluster's) starts from an empty server."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deepdiff import DeepDiff

from taugen.engines.changes.normalize import normal
from taugen.load.inventory import NodeFacts
from tests.realcluster.apply import (
    Refusal,
    apply_all,
    changed_by_apply,
    identity,
    live,
    render,
    settled,
    wave,
)
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.defaults import Record, added, differing, general, kind_of, merge, rewritten, split
from tests.realcluster.kube import Kube, Object, wait_for

GONE_SECONDS = 120.0
OWNERSHIP = "metadata.managedFields (taugen's entry only)"


@dataclass
class Outcome:
    objects: int
    dry_run: list[Refusal]
    applied: list[Refusal]
    second_writes: dict[str, list[str]]  # identity -> the fields the second apply changed
    added: Record = field(default_factory=dict)  # what the control plane wrote that the tree did not
    rewritten: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)  # (tree, live)
    seconds: dict[str, float] = field(default_factory=dict)
    # identity -> what `taugen diff` sees changed between the tree's object and the one read back
    # (taugen/engines/changes/defaults.py: what the cluster adds is no change); Nodes are drift's, not diff's
    read_back: dict[str, str] = field(default_factory=dict)


def exercise(
    plane: ControlPlane, kustomize: str, folder: Path, inventory: Mapping[str, NodeFacts]
) -> Outcome:
    kube, seconds = plane.kube, {}
    began = time.monotonic()
    objects = render(kustomize, folder)
    seconds["render"] = time.monotonic() - began
    named = [o["metadata"]["name"] for o in objects if _is_node(o)]
    nodes = [node_of(inventory[name]) for name in named if name in inventory]
    try:
        registered = _prepare(kube, objects, nodes)
        began = time.monotonic()
        _, dry = apply_all(kube, objects, dry_run=True)
        seconds["dry-run"] = time.monotonic() - began
        began = time.monotonic()
        _, refused = apply_all(kube, objects, dry_run=False)
        seconds["apply"] = time.monotonic() - began
        before = settled(kube, objects)
        began = time.monotonic()
        again, _ = apply_all(kube, objects, dry_run=False)
        seconds["second apply"] = time.monotonic() - began
        writes = {
            k: sorted(differing(before[k], again[k])) or [OWNERSHIP] for k in changed_by_apply(before, again)
        }
        outcome = Outcome(len(objects), dry, refused, writes, seconds=seconds)
        _what_was_added(outcome, objects, before, registered)
        outcome.read_back.update(_read_back(objects, before))
        return outcome
    finally:
        reset(plane, objects + nodes)


def node_of(facts: NodeFacts) -> Object:
    """The Node as its kubelet would have registered it: the inventory's labels and taints."""
    taints = [{"key": t.key, "value": t.value, "effect": t.effect} for t in facts.taints or ()]
    meta = {"name": facts.name, "labels": dict(facts.labels)}
    return {"apiVersion": "v1", "kind": "Node", "metadata": meta, "spec": {"taints": taints}}


def _is_node(obj: Object) -> bool:
    return bool(obj["apiVersion"] == "v1" and obj["kind"] == "Node")


def _prepare(kube: Kube, objects: list[Object], nodes: list[Object]) -> dict[str, Object]:
    """The namespaces and the Nodes; the Nodes as the server holds them (admission adds a
    not-ready taint), the baseline of what the tree's partial Nodes add."""
    namespaces = sorted({o["metadata"]["namespace"] for o in objects if o["metadata"].get("namespace")})
    for name in namespaces:
        Kube.expect(kube.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}))
    for node in nodes:
        Kube.expect(kube.create(node))
    return live(kube, nodes) if nodes else {}


def _what_was_added(
    outcome: Outcome, objects: list[Object], now: dict[str, Object], prior: dict[str, Object]
) -> None:
    for obj in objects:
        key = identity(obj)
        if key in now:
            baselines = [obj, prior[key]] if key in prior else [obj]
            for section, fields in split(added(now[key], *baselines), now[key]).items():
                merge(outcome.added, section, kind_of(obj), fields)
            if changed := rewritten(now[key], obj):
                outcome.rewritten[key] = {general(p): v for p, v in changed.items()}


def _read_back(objects: list[Object], now: dict[str, Object]) -> dict[str, str]:
    found = {}
    for obj in objects:
        key = identity(obj)
        if not _is_node(obj) and key in now and normal(obj) != normal(now[key]):
            found[key] = str(DeepDiff(normal(obj), normal(now[key])).to_dict())[:600]
    return found


def reset(plane: ControlPlane, objects: list[Object]) -> None:
    """Delete what the tree made, last wave first, and wait until it is gone (Kueue, running,
    lifts its finalizers). Namespaces stay: no namespace controller runs to empty them."""
    kube = plane.kube
    made = {identity(o): o for o in objects if o["kind"] != "Namespace"}
    for obj in sorted(made.values(), key=wave, reverse=True):
        answer = kube.delete(obj)
        assert answer.status_code in (200, 202, 404), f"delete {identity(obj)}: {answer.text}"
    left = list(made.values())
    wait_for(f"{len(left)} objects deleted", lambda: not live(kube, left), GONE_SECONDS, plane.alive)
