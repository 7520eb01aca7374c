"""Issue 17 item 9: every string taugen writes reads back as the same string in YAML 1.1.

kubectl (go-yaml) reads YAML 1.1, whose booleans include y, Y, n and N (yaml.org/type/bool);
PyYAML's SafeLoader leaves those out, so the reader here adds them. The emitted bytes, through
both the fast block writer and PyYAML's dumper, must give back exactly the strings written.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from taugen.emit.canonical import dump

SPEC_BOOL = re.compile(
    r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"
)


class Yaml11Loader(yaml.SafeLoader):
    """PyYAML's 1.1 SafeLoader with the spec's whole boolean table (what go-yaml reads)."""


Yaml11Loader.yaml_implicit_resolvers = {
    k: list(v) for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml11Loader.add_implicit_resolver("tag:yaml.org,2002:bool", SPEC_BOOL, list("yYnNtTfFoO"))


def _bool(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> bool:
    return str(loader.construct_scalar(node)).lower() in ("y", "yes", "true", "on")


Yaml11Loader.add_constructor("tag:yaml.org,2002:bool", _bool)

# YAML 1.1 and 1.2 booleans, nulls, numbers, timestamps, value and merge keys; and plain words.
_SPELLED = (
    "y Y n N yes Yes YES yEs no No NO nO on On ON oN off Off OFF oFF true True TRUE tRUE false False "
    "FALSE null Null NULL nULL ~ 017 0o17 0x1F 0b101 1_000 1e3 1E3 1.5 .5 -1 +1 .inf -.Inf .NaN 1:20 "
    "190:20:30 2026-11-29 2026-11-29T12:00:00Z = << - . _ ib-a h200-141gb"
)
SPELLINGS = _SPELLED.split()
LABEL_VALUE = st.text(alphabet="yYnNoOeE0189._-xXbB", min_size=1, max_size=6)
TEXT = st.one_of(st.sampled_from(SPELLINGS), LABEL_VALUE, st.text(min_size=1, max_size=8))


def _node(labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "h-0", "labels": labels}}


def test_the_reader_takes_y_for_a_boolean() -> None:
    assert yaml.load("a: y\nb: N\nc: 'y'\n", Loader=Yaml11Loader) == {"a": True, "b": False, "c": "y"}


def test_every_yaml_11_spelling_reads_back_as_the_string() -> None:
    labels = {f"k{i}": value for i, value in enumerate(SPELLINGS)} | {value: "v" for value in SPELLINGS}
    (doc,) = [d for d in yaml.load_all(dump([_node(labels)]), Loader=Yaml11Loader) if d is not None]
    assert doc["metadata"]["labels"] == labels


@given(st.dictionaries(TEXT, TEXT, min_size=1, max_size=6), st.lists(TEXT, max_size=3))
def test_emitted_strings_read_back_unchanged(labels: dict[str, str], items: list[str]) -> None:
    docs = [_node(labels), {"apiVersion": "v1", "kind": "List", "metadata": {"name": "x"}, "items": items}]
    loaded = [d for d in yaml.load_all(dump(docs), Loader=Yaml11Loader) if d is not None]
    assert loaded == docs
