"""What the real control plane adds to an applied object (issue 31): every field of the live
object that neither the tree nor the fixture wrote, in two sections — `controllers` (fields a
field manager other than taugen owns: Kueue's finalizers and status) and `server` (fields no
manager owns: schema defaults and built-in defaulting by kube-apiserver). Kept in
server_defaults.yaml, which the tests read; regenerated with
`TAUGEN_RECORD_SERVER_DEFAULTS=1 pytest -m realcluster`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from tests.realcluster.kube import Object

RECORD = Path(__file__).with_name("server_defaults.yaml")
EVERY_OBJECT = {"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"}
FIELD_MANAGER = "taugen"
VARIES = "<varies>"
Fields = dict[str, Any]  # field path ([*]: any list item) -> value
Record = dict[str, dict[str, Fields]]  # section -> "apiVersion kind" -> fields
HEAD = """\
# What the real control plane adds to taugen's applied trees (issue 31), per `apiVersion kind`:
# field path ([*]: any list item) -> the value written there (<varies>: more than one).
# `server`: fields no field manager owns, written by kube-apiserver v1.34.2 (schema defaults,
# built-in defaulting); `controllers`: fields another field manager owns (Kueue v0.19.2's
# minimalkueue: finalizers, status). Read by tests/realcluster/test_trees.py; rewritten by
# `TAUGEN_RECORD_SERVER_DEFAULTS=1 pytest -m realcluster`.
"""


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every scalar and every empty map or list; list items by index."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def added(live: Object, *baselines: Object) -> Fields:
    """The live object's leaves no baseline has (the metadata every object gets left out)."""
    known = {p for obj in baselines for p, _ in leaves(obj)}
    return {p: v for p, v in leaves(_trimmed(live)) if p not in known}


def rewritten(live: Object, written: Object) -> dict[str, tuple[Any, Any]]:
    """Leaves the live object holds at another value than written: path -> (written, live)."""
    theirs = dict(leaves(live))
    return {p: (v, theirs[p]) for p, v in leaves(written) if p in theirs and _canon(theirs[p]) != _canon(v)}


def differing(before: Object, after: Object) -> set[str]:
    """Generalized paths whose value differs between two versions of an object."""
    old, new = dict(leaves(_trimmed(before))), dict(leaves(_trimmed(after)))
    return {general(p) for p in old.keys() | new.keys() if _canon(old.get(p)) != _canon(new.get(p))}


def _trimmed(live: Object) -> Object:
    meta = {k: v for k, v in live["metadata"].items() if k not in EVERY_OBJECT}
    return {k: v for k, v in live.items() if k != "metadata"} | {"metadata": meta}


def kind_of(obj: Object) -> str:
    return f"{obj['apiVersion']} {obj['kind']}"


def split(found: Fields, live: Object) -> dict[str, Fields]:
    """The fields by section, paths generalized (two list items, two values: VARIES)."""
    owned = _owned(live)
    sections: Record = {}
    for path, value in found.items():
        plain = general(path).replace("[*]", "")
        section = "controllers" if any(plain == o or plain.startswith(o + ".") for o in owned) else "server"
        merge(sections, section, "", {general(path): value})
    return {section: kinds[""] for section, kinds in sections.items()}


def _owned(live: Object) -> set[str]:
    """Dotted paths another field manager owns, from managedFields (down to the first list)."""
    owned: set[str] = set()
    for entry in live["metadata"].get("managedFields") or []:
        if entry.get("manager") != FIELD_MANAGER:
            owned |= set(_field_paths(entry.get("fieldsV1") or {}, ""))
    return owned


def _field_paths(node: dict[str, Any], prefix: str) -> Iterator[str]:
    for key, child in node.items():
        if key.startswith("f:"):
            path = f"{prefix}.{key[2:]}" if prefix else key[2:]
            inner = [k for k in child if k.startswith("f:")]
            if inner:
                yield from _field_paths({k: child[k] for k in inner}, path)
            if not inner or any(not k.startswith(("f:", ".")) for k in child):
                yield path  # a leaf, or a list whose items (k:, v:, i:) it owns


def general(path: str) -> str:
    """List indexes as [*]: the record says where a field lands, not in which item."""
    out, depth = [], 0
    for char in path:
        if char == "[":
            depth += 1
            out.append("[*]")
        elif char == "]":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def merge(into: Record, section: str, kind: str, fields: Fields) -> None:
    """Fields of one more object; a path seen with two values records VARIES."""
    known = into.setdefault(section, {}).setdefault(kind, {})
    for path, value in fields.items():
        if path in known and _canon(known[path]) != _canon(value):
            known[path] = VARIES
        else:
            known.setdefault(path, value)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def read_record() -> Record:
    data: Record = yaml.safe_load(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    return data or {}


def write_record(seen: Record) -> None:
    body = {
        section: {kind: dict(sorted(f.items())) for kind, f in sorted(seen.get(section, {}).items()) if f}
        for section in ("server", "controllers")
    }
    RECORD.write_text(HEAD + yaml.safe_dump(body, sort_keys=False, width=100), encoding="utf-8")


def unrecorded(observed: Record, record: Record) -> Record:
    """Observed fields the record lacks, or holds at another value (VARIES holds any)."""
    missing: Record = {}
    for section, kinds in observed.items():
        for kind, fields in kinds.items():
            known = record.get(section, {}).get(kind, {})
            for path, value in fields.items():
                if path not in known or (known[path] != VARIES and _canon(known[path]) != _canon(value)):
                    missing.setdefault(section, {}).setdefault(kind, {})[path] = value
    return missing
