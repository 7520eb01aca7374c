"""What the API server, Argo CD or kustomize refuse of any object (issue 20): its size and its
file's (SPEC G2), a (group, kind, namespace, name) met twice in one cluster's tree, and
`metadata.name` and `metadata.namespace` by the rules of each built-in kind (a custom
resource's names are checked by its schema, a Node's by nodes.py).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from taugen.core import names
from taugen.validate.findings import Finding, finding
from taugen.validate.listing import KUSTOMIZATION
from taugen.validate.resources import Resource

MAX_OBJECT = 262_144  # G2: Argo CD's client-side apply keeps the object in a 256 KiB annotation
MAX_FILE = 1_048_576  # G2: 1 MiB
JSON_PER_BYTE = 8  # an object's JSON is at most ~6 times its YAML text (`<` is `\u003c` to Go)
FILE_HINT = "split it: kustomize and Argo CD read it whole (taugen writes node shards in smaller files)"
SIZE_HINT = "split it: an object is at most 262,144 bytes as JSON and a file at most 1 MiB (SPEC G2)"
_MARKER = re.compile(r"\n(?:---|\.\.\.)[ \t\r\n]")  # one missed makes a span longer: safe
_MARKER_BYTES = re.compile(_MARKER.pattern.encode())
Key = tuple[int, str, str, str, str]  # tree, group, kind, namespace, name


def sizes(resources: Sequence[Resource]) -> Iterator[Finding]:
    for group in _by_file(resources).values():
        text = group[0].doc.text
        size = len(text.encode()) if text is not None else _file_size(group[0].file)
        if size > MAX_FILE:  # G2: an error; the 100,000-node benchmark's largest file is 310,938 bytes
            message = f"the file is {size:,} bytes; SPEC G2 allows 1,048,576"
            yield finding(group[0], [], "size", message, FILE_HINT)
        if text is not None and objects_fit(text):
            continue  # no object of this file can be too large: the JSON is not made
        for resource in group:
            length = len(json.dumps(resource.obj, separators=(",", ":"), ensure_ascii=False, default=str))
            if length > MAX_OBJECT:
                message = f"the object is {length:,} bytes as JSON; at most 262,144"
                yield finding(resource, [], "size", message, SIZE_HINT)


def objects_fit(text: str | bytes) -> bool:
    """No object of this text (or its UTF-8 bytes) can be too large as JSON: no alias, and no
    document's text over an eighth of the limit."""
    alias = "&" in text if isinstance(text, str) else b"&" in text
    return not alias and largest_document(text) * JSON_PER_BYTE <= MAX_OBJECT


def largest_document(text: str | bytes) -> int:
    """The longest stretch between document markers (`---`, `...` at a line's start): no
    document's text is longer (a marker inside a scalar ends it, in YAML); in bytes, of bytes."""
    found = _MARKER.finditer(text) if isinstance(text, str) else _MARKER_BYTES.finditer(text)
    starts = [0, *(m.start() for m in found), len(text)]
    return max(b - a for a, b in itertools.pairwise(starts))


def _by_file(resources: Sequence[Resource]) -> dict[Path, list[Resource]]:
    found: dict[Path, list[Resource]] = {}
    for resource in resources:
        found.setdefault(resource.file, []).append(resource)
    return found


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def duplicates(resources: Sequence[Resource], roots: Sequence[Path]) -> Iterator[Finding]:
    """The second object of a (group, kind, namespace, name) in one tree (each of `roots` is a
    cluster's tree; none: all one tree). kustomize refuses it, and one would overwrite the other."""
    tree = tree_of(roots)
    first: dict[Key, Resource] = {}
    for resource in resources:
        obj = resource.obj
        if not isinstance(obj, dict) or not resource.name or not isinstance(obj.get("apiVersion"), str):
            continue
        group = obj["apiVersion"].rpartition("/")[0]
        key = (tree(resource.file), group, resource.kind, resource.namespace, resource.name)
        if key not in first:
            first[key] = resource
            continue
        there = first[key].at(["metadata", "name"])
        shown = _relative(there.path)
        yield finding(
            resource,
            ["metadata", "name"],
            "duplicate",
            f"{resource.ident} is already defined in {shown}:{there.line}",
            "keep one: kustomize refuses a tree with two objects of one group, kind, namespace and name",
        )


def tree_roots(paths: Sequence[Path]) -> list[Path]:
    """The cluster trees of `taugen validate PATH...`: a PATH with a kustomization is one; in
    a PATH without one (an output root), each subfolder with a kustomization is one, and the
    rest of the PATH another."""
    roots: list[Path] = []
    for path in paths:
        folder = path if path.is_dir() else path.parent
        if not (folder / KUSTOMIZATION).is_file():
            roots += sorted(k.parent for k in folder.glob(f"*/{KUSTOMIZATION}"))
        roots.append(folder)
    return roots


def tree_of(roots: Sequence[Path]) -> Callable[[Path], int]:
    resolved = [r.resolve() for r in roots]
    cache: dict[Path, int] = {}

    def tree(path: Path) -> int:
        if path not in cache:
            folder = path.resolve()
            cache[path] = next((i for i, r in enumerate(resolved) if folder.is_relative_to(r)), -1)
        return cache[path]

    return tree


def _relative(path: Path) -> str:
    """The other file as the report shows paths: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


# apimachinery's name rule of each built-in kind; every other built-in kind: a DNS subdomain
_NAME_RULES: dict[str, Callable[[str], str | None]] = {
    "Namespace": names.dns1123_label_error,
    "Service": names.dns1035_label_error,
    "Role": names.path_segment_error,
    "ClusterRole": names.path_segment_error,
    "RoleBinding": names.path_segment_error,
    "ClusterRoleBinding": names.path_segment_error,
}
_SHORTER = {"Job": 63, "CronJob": 52}  # the name goes into a label value (and a CronJob's Jobs' names)


def metadata_names(resources: Sequence[Resource]) -> Iterator[Finding]:
    for resource in resources:
        obj = resource.obj
        if not isinstance(obj, dict) or not _builtin(obj.get("apiVersion")) or resource.kind == "Node":
            continue
        meta = obj.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        yield from _name(resource, meta)
        namespace = meta.get("namespace")
        if isinstance(namespace, str) and (why := names.dns1123_label_error(namespace)):
            yield finding(
                resource, ["metadata", "namespace"], "name", f"namespace {why}", "a namespace is a DNS label"
            )


def _name(resource: Resource, meta: dict[str, Any]) -> Iterator[Finding]:
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        if not meta.get("generateName"):
            hint = "kustomize and the API server need a name"
            yield finding(resource, ["metadata"], "name", "metadata.name is missing", hint)
        return
    why = _NAME_RULES.get(resource.kind, names.dns1123_subdomain_error)(name)
    limit = _SHORTER.get(resource.kind)
    if why is None and limit is not None and len(name) > limit:
        why = f"is {len(name)} characters long; a {resource.kind} name is at most {limit}"
    if why is not None:
        yield finding(
            resource,
            ["metadata", "name"],
            "name",
            f"name {why}",
            f"the API server refuses this {resource.kind}",
        )


def _builtin(api_version: Any) -> bool:
    """A kind of Kubernetes itself: the core group, a group with no dot, or a *.k8s.io group."""
    if not isinstance(api_version, str):
        return False
    group = api_version.rpartition("/")[0]
    return "." not in group or group.endswith(".k8s.io")
