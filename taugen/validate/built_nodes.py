"""Partial Nodes checked in bulk, not one by one (issue 36): the build's gate, and `validate`.

A compiled Node is `{apiVersion: v1, kind: Node, metadata: {name, labels, annotations}}`. Of
such a Node, `taugen validate` can find fault only with a label or annotation that is no string
(the schema), its name, its labels' syntax, a level label its class's Topology needs (Kueue's or
KAI's), a name met twice in one tree, or its size; and every such finding is an error. `clean`
checks exactly those, in one walk, each distinct name, key and value once.

It is a sufficient condition: when it holds, validating the Nodes one by one finds nothing
(tests/property/test_gate_nodes.py holds it to that, against the whole engine). When it does
not, or a Node is not as above, they are validated one by one as before, so every message and
position is the engine's own.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from taugen.api.checks import object_checks
from taugen.core import names
from taugen.resolve.labels import GPU_CLASS, OWN_PREFIXES
from taugen.validate import objects
from taugen.validate.cel import CelCheck
from taugen.validate.kai import topology_levels
from taugen.validate.nodes import class_levels
from taugen.validate.resources import Resource
from taugen.validate.schemas import SchemaStore
from taugen.validate.semantic import Tree, folder_of

NODE = ("v1", "Node")
_META = frozenset({"name", "labels", "annotations"})
_TOP = frozenset({"apiVersion", "kind", "metadata"})
TreeOf = Callable[[Path], int]  # objects.tree_of: a file -> the index of its tree


@dataclass(frozen=True, eq=False)
class BuiltFile:
    """One file of objects and its text: what the build is about to write (its bytes), or what
    `validate` read fast (`clean` is asked of those whose objects are all partial Nodes)."""

    path: Path
    objects: list[dict[str, Any]]
    source: str | bytes  # the text, or its UTF-8 bytes: decoded only when a position is needed

    @cached_property
    def text(self) -> str:
        """The file's text (issue 36: a build's gate decoded every file, 80 MiB at 100,000 Nodes,
        which `clean` reads as bytes)."""
        return self.source if isinstance(self.source, str) else self.source.decode()


def shaped(docs: Sequence[Any]) -> bool:
    """Every object is a partial Node of the compiled shape (its strings' types: `clean`)."""
    return bool(docs) and all(map(_shaped, docs))


def _shaped(obj: Any) -> bool:
    if type(obj) is not dict or obj.keys() != _TOP or obj["apiVersion"] != "v1" or obj["kind"] != "Node":
        return False
    meta = obj["metadata"]
    return (
        type(meta) is dict
        and meta.keys() <= _META
        and type(meta.get("name")) is str
        and type(meta.get("labels", {})) is dict
        and type(meta.get("annotations", {})) is dict
    )


def clean(
    files: Sequence[BuiltFile],
    others: list[Resource],
    store: SchemaStore,
    roots: Sequence[Path],
    elsewhere: Sequence[Elsewhere] = (),
) -> frozenset[str] | None:
    """The gpu-classes the Nodes carry (as flavor_nodes reads them) when `validate` could find
    nothing to say of them beside `others`, the rest of the trees; else None. `elsewhere`: files
    of Nodes another process built and summarized (emit/split.py), checked as if they were here."""
    if any(e.summary.checked is False for e in elsewhere):
        return None
    sources = [
        *(f.source for f in files),
        *(t for e in elsewhere if e.summary.checked is None for t in e.sources),
    ]
    if not _kind_unchecked(store) or not all(map(_fits, sources)):
        return None
    tree = objects.tree_of(roots)
    try:
        parts = [(f.path, summary([f.objects])) for f in files]
    except TypeError:  # a value that cannot be hashed is no string
        return None
    for part in filter(lambda e: e.paths, elsewhere):  # a child whose half held no group: nothing
        if len({(tree(p), folder_of(p)) for p in part.paths}) != 1:
            return None  # one summary stands for one tree's one cluster folder
        parts.append((part.paths[0], part.summary))
    seen = _walk(parts, tree, Tree(others))
    if seen is None or not _unique(seen, others, tree) or not _syntax(seen):
        return None
    return frozenset(map(str, seen.classes))


@dataclass
class NodeSummary:
    """What `clean` needs of some partial Nodes, without the Nodes: their names and how many,
    each distinct label key, label value and annotation, their gpu-classes, and per gpu-class the
    label keys every Node of it carries (it misses a level label when its class's are not all
    among them). Another process can send it in place of its Nodes (issue 36, emit/split.py)."""

    names: set[Any] = field(default_factory=set)
    count: int = 0
    keys: set[Any] = field(default_factory=set)
    values: set[Any] = field(default_factory=set)
    notes: set[tuple[Any, Any]] = field(default_factory=set)
    classes: set[Any] = field(default_factory=set)
    carried: dict[Any, set[Any]] = field(default_factory=dict)
    # where it was made (summarized): True when its files fit (SPEC G2) and each name is a DNS
    # name, False when not; None: not looked at, `clean` looks (issue 36: each process its half)
    checked: bool | None = None

    def merged(self, other: NodeSummary) -> NodeSummary:
        """The summary of this one's Nodes and `other`'s together."""
        carried = {c: set(keys) for c, keys in self.carried.items()}
        for gpu_class, keys in other.carried.items():
            carried[gpu_class] = carried[gpu_class] & keys if gpu_class in carried else set(keys)
        checks = (self.checked, other.checked)
        return NodeSummary(
            self.names | other.names,
            self.count + other.count,
            self.keys | other.keys,
            self.values | other.values,
            self.notes | other.notes,
            self.classes | other.classes,
            carried,
            None if None in checks else all(checks),
        )


def summary(docs: Iterable[Sequence[dict[str, Any]]]) -> NodeSummary:
    """The summary of these files' partial Nodes (each of `shaped`'s shape); TypeError for a
    value that cannot be hashed."""
    seen = NodeSummary()
    last: Any = None  # the annotations of the Node before: a build gives every Node the same
    for nodes in docs:
        seen.count += len(nodes)
        for node in nodes:
            meta = node["metadata"]
            seen.names.add(meta["name"])
            labels = meta.get("labels", {})
            seen.keys.update(labels)
            seen.values.update(labels.values())
            gpu_class = labels.get(GPU_CLASS)
            seen.classes.add(gpu_class)
            if gpu_class:
                carried = seen.carried.get(gpu_class)
                if carried is None:
                    seen.carried[gpu_class] = set(labels)
                else:
                    carried.intersection_update(labels)
            notes = meta.get("annotations", {})
            if notes != last:
                seen.notes.update(notes.items())
                last = notes
    return seen


def summarized(objects: Mapping[str, Sequence[Any]], texts: Mapping[str, bytes]) -> NodeSummary | None:
    """The summary of files of objects (and their bytes) when all are partial Nodes of the
    compiled shape, else None (they are then sent as they are); checked here."""
    if not all(map(shaped, objects.values())):
        return None
    try:
        found = summary(objects.values())
    except TypeError:
        return None
    found.checked = all(map(_fits, texts.values())) and _names(found.names)
    return found


@dataclass(frozen=True)
class Elsewhere:
    """Files of partial Nodes built by another process: their paths, their bytes and the summary
    of their Nodes."""

    paths: tuple[Path, ...]
    sources: tuple[bytes, ...]
    summary: NodeSummary


@dataclass(frozen=True)
class Vouched:
    """The Nodes `clean` vouched for, by id(), and the gpu-classes they carry."""

    ids: frozenset[int] = frozenset()
    classes: frozenset[str] = frozenset()


NOTHING = Vouched()


def vouch(resources: Sequence[Resource], store: SchemaStore, roots: Sequence[Path]) -> Vouched:
    """`taugen validate`'s bulk check: the Nodes of the files that hold partial Nodes alone,
    read fast (their text kept), when `clean` vouches for them; else none."""
    by_file: dict[Path, list[Resource]] = {}
    for resource in resources:
        by_file.setdefault(resource.file, []).append(resource)
    files: list[BuiltFile] = []
    others: list[Resource] = []
    nodes: list[Resource] = []
    for path, group in by_file.items():
        text, found = group[0].doc.text, [r.obj for r in group]
        if text is not None and shaped(found):
            files.append(BuiltFile(path, found, text))
            nodes += group
        else:
            others += group
    carried = clean(files, others, store, roots) if files else None
    return NOTHING if carried is None else Vouched(frozenset(map(id, nodes)), carried)


def _kind_unchecked(store: SchemaStore) -> bool:
    """A Node's schema is Kubernetes' own (of the shape, it refuses nothing), with no CEL rule and
    no check of taugen's own: what any other source would say is the engine's to find."""
    checker = store.lookup(*NODE)
    return (
        checker is not None
        and checker.source == "kubernetes"
        and CelCheck(store.rules).sites(*NODE) is None
        and not object_checks(NODE)
    )


def _fits(source: str | bytes) -> bool:
    """objects.sizes has nothing to say of the file (SPEC G2)."""
    size = len(source) if isinstance(source, bytes) else len(source.encode())
    return size <= objects.MAX_FILE and objects.objects_fit(source)


@dataclass
class _Seen:
    """What the summaries hold together: the Nodes' names by tree, and each distinct string."""

    names: dict[int, set[Any]] = field(default_factory=dict)
    count: int = 0
    keys: set[Any] = field(default_factory=set)
    values: set[Any] = field(default_factory=set)
    notes: set[tuple[Any, Any]] = field(default_factory=set)
    classes: set[Any] = field(default_factory=set)
    unchecked: set[Any] = field(default_factory=set)  # the names no summary's `checked` vouched for


def _walk(parts: Sequence[tuple[Path, NodeSummary]], tree: TreeOf, others: Tree) -> _Seen | None:
    """The summaries of the files at these paths together; None when a Node misses a level
    label of its own that its class's Topology (Kueue's: nodes.node_levels) or its cluster's
    (KAI's: kai.node_levels) names. The kubelet sets the hostname (R29)."""
    by_class = {c: _own(levels) for c, levels in class_levels(others).items()}
    kai = {folder: _own(levels) for folder, levels in topology_levels(others).items()}
    seen = _Seen()
    for path, part in parts:
        cluster = kai.get(folder_of(path), set())
        if any(not by_class.get(c, set()) | cluster <= keys for c, keys in part.carried.items()):
            return None
        seen.names.setdefault(tree(path), set()).update(part.names)
        if not part.checked:
            seen.unchecked |= part.names
        seen.count += part.count
        seen.keys |= part.keys
        seen.values |= part.values
        seen.notes |= part.notes
        seen.classes |= part.classes
    return seen


def _own(levels: set[str] | list[str]) -> set[str]:
    return {lv for lv in levels if lv.startswith(OWN_PREFIXES)}


def _unique(seen: _Seen, others: Sequence[Resource], tree: TreeOf) -> bool:
    """objects.duplicates: no name twice in one tree among the Nodes, nor a Node of `others`
    there with one of their names."""
    if sum(map(len, seen.names.values())) != seen.count:
        return False
    return not any(r.kind == "Node" and r.name in seen.names.get(tree(r.file), ()) for r in others)


def _syntax(seen: _Seen) -> bool:
    """The schema and nodes.node_names: labels and annotations strings to strings, each name a
    DNS subdomain (those of a summary `checked` where it was made: looked at there), each label
    key and value valid."""
    return (
        all(type(s) is str for s in itertools.chain(seen.keys, seen.values, *zip(*seen.notes, strict=True)))
        and _names(seen.unchecked)
        and not any(names.label_key_error(k) for k in seen.keys)
        and not any(names.label_value_error(v) for v in seen.values)
    )


def _names(found: set[Any]) -> bool:
    """nodes.node_names: each name a DNS subdomain (the shape made it a string)."""
    return "" not in found and not any(names.dns1123_subdomain_error(n) for n in found)
