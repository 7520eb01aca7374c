"""taugen/emit/blocks.py writes maps of strings byte for byte as PyYAML's dumper does (issue 6):
the fast path may never change a tree's bytes."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taugen.emit.canonical import _dump_one, dump

WORDS = st.sampled_from(
    [
        "yes",
        "No",
        "ON",
        "true",
        "null",
        "Null",
        "y",
        "N",
        "1e400",
        "0o17",
        "8",
        "-x",
        "a: b",
        "a #b",
        "x:",
        "kubernetes.io/hostname",
        "Standard_ND96isr_H200_v5",
        "ib-1",
        "singleton-h-0",
        "é",
        "'q'",
        '"d"',
        " lead",
        "trail ",
        "a\tb",
        "[x]",
        "{y}",
        "*z",
        "&a",
        "!t",
        "%p",
        "@q",
        "`r",
        "|s",
        ">t",
        "?u",
        ",v",
        "2026-11-29",
    ]
)
TEXT = st.one_of(
    WORDS, st.text(min_size=1, max_size=12), st.text(alphabet="aZ09./_-: #'\"", min_size=1, max_size=8)
)
KEY = st.one_of(TEXT, st.text(alphabet="ab", min_size=126, max_size=130))


def _maps(depth: int = 3) -> st.SearchStrategy[Any]:
    leaf = st.one_of(TEXT, st.integers(), st.booleans(), st.none(), st.just(""), st.just("two\nlines"))
    if depth == 0:
        return leaf
    return st.one_of(leaf, st.dictionaries(KEY, _maps(depth - 1), max_size=4), st.lists(leaf, max_size=2))


@settings(max_examples=int(os.environ.get("BLOCKS_EXAMPLES", "300")))
@given(st.lists(st.dictionaries(KEY, _maps(), min_size=1, max_size=4), min_size=1, max_size=3))
def test_documents_are_written_as_pyyaml_writes_them(docs: list[dict[str, Any]]) -> None:
    expected = "".join(_dump_one(doc) for doc in docs)
    assert dump(docs, header="").decode() == expected


def test_a_partial_node_takes_the_fast_path_and_is_byte_equal() -> None:
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "aks-h200-0",
            "labels": {"tau.azure.com/gpu-class": "h200-141gb", "tau.azure.com/infiniband": "true"},
            "annotations": {"argocd.argoproj.io/sync-options": "ServerSideApply=true,Prune=false"},
        },
    }
    from taugen.emit.blocks import block

    assert block(node, lambda text: f"<{text}>") is not None
    assert dump([node], header="").decode() == _dump_one(node)
