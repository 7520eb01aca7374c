"""G2's sizes are measured in compact JSON: `json_length` (compile/nodelabels/shards.py) gives
orjson's byte count where it can, the json module's where orjson refuses (issue 36). For any value
a node-label object can hold, the count is the json module's, so shards are packed into the same
files as before."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from taugen.compile.manifest import Manifest
from taugen.compile.nodelabels import shards
from taugen.compile.nodelabels.shards import estimated_bytes, json_length


def _json_module(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


# every character but lone surrogates (not UTF-8: neither encoder writes them), with the
# controls, quotes, backslashes and wide characters each encoder escapes or keeps
TEXT = st.text(st.characters(exclude_categories=["Cs"]) | st.sampled_from('"\\\x00\x1f\x7f\u2028/\t'))
SCALARS = (
    TEXT
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.integers()  # past 64 bits: orjson refuses, json measures
    | st.booleans()
    | st.none()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(VALUES)
def test_json_length_is_the_json_modules_count(value: Any) -> None:
    assert json_length(value) == _json_module(value)


@given(st.dictionaries(st.integers() | st.booleans(), VALUES, min_size=1, max_size=3))
def test_keys_orjson_refuses_are_counted_by_the_json_module(value: dict[Any, Any]) -> None:
    assert json_length(value) == _json_module(value)


def test_a_node_object_is_estimated_from_its_json() -> None:
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "gpu-0",
            "labels": {"tau.azure.com/gpu-class": "h100-80gb", "café": "naïve 𝄞"},
            "annotations": {"kustomize.toolkit.fluxcd.io/ssa": "Merge"},
        },
    }
    expected = 2 * _json_module(node) + shards.DECORATION
    assert estimated_bytes(node) == expected
    assert shards._total_estimate([]) == 0


@given(st.lists(st.dictionaries(TEXT, VALUES, max_size=3), max_size=5))
def test_a_shards_total_is_the_sum_of_its_objects_estimates(objects: list[dict[str, Any]]) -> None:
    manifests = [Manifest(f"nodes/{i}.yaml", obj) for i, obj in enumerate(objects)]
    assert shards._total_estimate(manifests) == sum(estimated_bytes(obj) for obj in objects)
