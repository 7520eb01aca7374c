"""Headlines in the scheduler's words (Kueue's, KAI's), each with old → new:
`ClusterQueue taugrid: flavor taugrid-h200-141gb nvidia.com/gpu 48 → 64`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from taugen.engines.changes.changes import FieldChange, ObjectChange
from taugen.engines.changes.normalize import FieldPath, Key

NONE = "(none)"
ARROW = "→"
_LONGEST = 72
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_TAU = "tau.azure.com/"
_GROUP = ("spec", "resourceGroups", "*")
# (kind, pattern, words): "{x}" captures a step ("tau.azure.com/{x}" its end), "*" skips one,
# "{rest}" the remaining steps; the first match wins, "" matches any kind.
_RULES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("ClusterQueue", (*_GROUP, "flavors", "{f}", "resources", "{r}", "nominalQuota"), "flavor {f} {r}"),
    ("ClusterQueue", (*_GROUP, "flavors", "{f}", "resources", "{r}", "{rest}"), "flavor {f} {r} {rest}"),
    ("ClusterQueue", (*_GROUP, "flavors", "{f}", "resources", "{r}"), "flavor {f} {r}"),
    ("ClusterQueue", (*_GROUP, "flavors", "{f}"), "flavor {f}"),
    ("ClusterQueue", (*_GROUP, "flavors"), "flavor order"),
    ("ClusterQueue", (*_GROUP, "coveredResources"), "covered resource"),
    # R51: a group's Cohort holds quota and limits in the same shape, under its parent
    ("Cohort", (*_GROUP, "flavors", "{f}", "resources", "{r}", "nominalQuota"), "flavor {f} {r}"),
    ("Cohort", (*_GROUP, "flavors", "{f}", "resources", "{r}", "{rest}"), "flavor {f} {r} {rest}"),
    ("Cohort", (*_GROUP, "flavors", "{f}"), "flavor {f}"),
    ("Cohort", ("spec", "parentName"), "parent"),
    ("ClusterQueue", ("spec", "cohortName"), "cohort"),  # R51: a tenant's queue moves to a group's Cohort
    (
        "ClusterQueue",
        ("spec", "namespaceSelector", "matchExpressions", "kubernetes.io/metadata.name", "values"),
        "tenant namespace",
    ),
    ("Topology", ("spec", "levels"), "level order"),
    ("Topology", ("spec", "levels", "{l}"), "level {l}"),
    ("Topology", ("spec", "levels", "{l}", "{rest}"), "level {l} {rest}"),
    ("ResourceFlavor", ("spec", "nodeLabels", "{k}"), "nodeLabel {k}"),
    ("ResourceFlavor", ("spec", "nodeTaints"), "taint"),
    ("ResourceFlavor", ("spec", "tolerations"), "toleration"),
    ("ResourceFlavor", ("metadata", "annotations", f"{_TAU}ready-torchrun-host-slots"), "ready slots"),
    ("Node", ("metadata", "labels", _TAU + "{k}"), "{k}"),
    ("Queue", ("spec", "resources", "{r}", "quota"), "{r} quota"),  # KAI (K2)
    ("Queue", ("spec", "resources", "{r}", "{rest}"), "{r} {rest}"),
    ("Queue", ("spec", "parentQueue"), "parent queue"),
    ("ClusterTopologyBinding", ("spec", "schedulerTopologyBindings"), "scheduler topology binding"),
    ("ConfigMap", ("data", "*", "inputsDigest"), "catalog inputsDigest"),
    ("ConfigMap", ("data", "*", "profiles", "{p}"), "profile {p}"),
    ("ConfigMap", ("data", "*", "profiles", "{p}", "{rest}"), "profile {p} {rest}"),
    ("", ("metadata", "labels", "{k}"), "label {k}"),
    ("", ("metadata", "annotations", "{k}"), "annotation {k}"),
)


def object_headline(change: ObjectChange) -> str:
    if change.action == "remove":
        return f"{change.ident.title} removed"
    return f"{change.ident.title} added{_about(change.ident.kind, change.new or {})}"


def field_headline(kind: str, change: FieldChange) -> str:
    """The words after `Kind name: `."""
    what = describe(kind, change.path)
    if change.action == "reordered":
        return f"{what} {', '.join(change.old)} {ARROW} {', '.join(change.new)}"
    if change.member:
        item = change.new if change.action == "added" else change.old
        return f"{what} {show(item)} {change.action}"
    value = change.new if change.action == "added" else change.old
    if change.action != "changed" and isinstance(value, frozenset):
        return f"{what} {show(value)} {change.action}"  # a whole list of taints or tolerations
    if change.action == "added" and _container(value):
        return f"{what} added{_contents(value)}"
    if change.action == "removed" and _container(value):
        return f"{what} removed"
    old, new = show(change.old), show(change.new)
    if old == new:  # the same text, another YAML type: `48` and `'48'`
        old, new = f"{old} ({type(change.old).__name__})", f"{new} ({type(change.new).__name__})"
    return f"{what} {old} {ARROW} {new}"


def describe(kind: str, path: FieldPath) -> str:
    for rule_kind, pattern, words in _RULES:
        if rule_kind in ("", kind):
            found = _match(pattern, path)
            if found is not None:
                return words.format(**found)
    return _dotted(path)


def show(value: Any) -> str:
    if value is None:
        return NONE
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, frozenset | set):
        text = ", ".join(sorted(str(v) for v in value))
    elif isinstance(value, list):
        text = ", ".join(show(v) for v in value)
    elif isinstance(value, Mapping):
        text = ", ".join(f"{k}: {show(v)}" for k, v in value.items())
    elif isinstance(value, str) and _DIGEST.fullmatch(value):
        return value[:19] + "…"  # sha256: and 12 hex digits tell two digests apart
    else:
        text = f'"{value}"' if isinstance(value, str) and " " in value else str(value)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 1] + "…"


def _match(pattern: tuple[str, ...], path: FieldPath) -> dict[str, str] | None:
    found: dict[str, str] = {}
    for i, step in enumerate(pattern):
        if step == "{rest}":
            return {**found, "rest": _dotted(path[i:])} if i < len(path) else None
        if i >= len(path) or not _fits(step, path[i], found):
            return None
    return found if len(pattern) == len(path) else None


def _fits(step: str, actual: Key, found: dict[str, str]) -> bool:
    if step == "*":
        return True
    prefix, brace, name = step.partition("{")
    if not brace:
        return actual == step
    if not isinstance(actual, str) or not actual.startswith(prefix) or actual == prefix:
        return False
    found[name.rstrip("}")] = actual[len(prefix) :]
    return True


def _dotted(path: FieldPath) -> str:
    """`queueingStrategy`, `data.config[0]`: the field's path, without the `spec.` every field has."""
    steps = path[1:] if path[:1] == ("spec",) and len(path) > 1 else path
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in steps)
    return text.removeprefix(".") or "object"


def _container(value: Any) -> bool:
    return isinstance(value, Mapping | list | frozenset)


def _contents(value: Any) -> str:
    """What a map that appeared holds: a flavor's quotas, or a map of labels."""
    if not isinstance(value, Mapping):
        return ""
    resources = value.get("resources")
    if isinstance(resources, Mapping):
        quotas = [f"{r} {q.get('nominalQuota')}" for r, q in resources.items() if isinstance(q, Mapping)]
        return f" ({', '.join(quotas)})" if quotas else ""
    if value and not any(_container(v) for v in value.values()):
        return f" ({', '.join(f'{k}={show(v)}' for k, v in value.items())})"
    return ""


def _about(kind: str, obj: Mapping[str, Any]) -> str:
    """A word on what was added, when one field says what it is."""
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), Mapping) else {}
    labels = meta.get("labels") if isinstance(meta, Mapping) else None
    spec = obj.get("spec") if isinstance(obj.get("spec"), Mapping) else {}
    if kind == "Node" and isinstance(labels, Mapping) and f"{_TAU}gpu-class" in labels:
        return f" (gpu-class {labels[f'{_TAU}gpu-class']})"
    if kind == "LocalQueue" and isinstance(spec, Mapping) and "clusterQueue" in spec:
        return f" (clusterQueue {spec['clusterQueue']})"
    if kind == "Queue" and isinstance(spec, Mapping):
        return f" (parent {spec['parentQueue']})" if "parentQueue" in spec else " (parent queue)"
    if kind in ("PriorityClass", "WorkloadPriorityClass") and "value" in obj:
        return f" (value {obj['value']})"
    return ""
