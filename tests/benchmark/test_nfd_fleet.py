"""G5 at fleet scale: the 10,000-node benchmark fleet on `nodeLabels: nfd` builds a tree whose
NodeFeatureRules are named apart and each at most 262,144 bytes as JSON; kustomize builds it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.generate import generate
from taugen.compile.nodelabels.nfd import MAX_OBJECT_BYTES
from taugen.compile.slot import SLOT_FILE
from tests.support.tree import json_bytes, kustomize_errors, shared_identities, tree_objects
from tests.support.unit import run_build

pytestmark = pytest.mark.benchmark
NODES = 10_000


def test_a_10k_fleet_on_nfd_builds_unique_objects_within_the_limit(tmp_path: Path) -> None:
    project = generate(tmp_path, NODES, forms=["native"])["native"].project
    text = project.read_text()
    project.write_text(
        text.replace("    rules: [values.yaml]\n", "    rules: [values.yaml]\n    nodeLabels: nfd\n")
    )
    run_build(project)
    folder = project.parent / "out" / "bench"
    objects = tree_objects(folder)
    rules = [o for f, o in objects if o["kind"] == "NodeFeatureRule" and f.startswith("nodes/")]
    assert [f for f, o in objects if o["kind"] == "NodeFeatureRule" and o not in rules] == [SLOT_FILE]
    assert len(rules) > 10 and not [o for _, o in objects if o["kind"] == "Node"]
    assert shared_identities(folder) == {}
    assert max(json_bytes(o) for _, o in objects) <= MAX_OBJECT_BYTES
    matched = [n for o in rules for r in o["spec"]["rules"] for n in _names(r)]
    assert len(matched) == len(set(matched)) == NODES - NODES * 3 // 100  # all but untouched CPU nodes
    assert kustomize_errors(folder) is None


def _names(rule: dict[str, Any]) -> list[str]:
    (term,) = rule["matchFeatures"]
    return list(term["matchExpressions"]["nodename"]["value"])
