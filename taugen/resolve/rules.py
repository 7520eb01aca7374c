"""Node label rules: built-ins first, then extra rules in file order (R1-R3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from taugen.core.errors import Problem, Rule
from taugen.core.names import dns1123_label_error, label_key_error, label_value_error
from taugen.load.rules import LoadedRule
from taugen.models.platform import TopologyLabels
from taugen.models.rules import NodeLabelRule, RuleMatch
from taugen.resolve.labels import (
    COMPUTED,
    GPU_CLASS,
    GPU_SERIES,
    PLATFORM_PREFIX,
    RESERVED_GPU_CLASSES,
    RESERVED_WHY,
    domain_keys,
    reserved_prefix,
)

# R2: (vmSizes, gpu-series, gpu-class)
_BUILTIN = (
    (("Standard_ND96asr_v4",), "nd-a100-v4", "a100-40gb"),
    (("Standard_ND96amsr_A100_v4",), "ndm-a100-v4", "a100-80gb"),
    (
        ("Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4", "Standard_NC96ads_A100_v4"),
        "nc-a100-v4",
        "a100-80gb",
    ),
    (("Standard_ND96isr_H100_v5",), "nd-h100-v5", "h100-80gb"),
    (("Standard_ND96isr_H200_v5",), "nd-h200-v5", "h200-141gb"),
)

BUILTIN_RULES = tuple(
    LoadedRule(
        NodeLabelRule(
            match=RuleMatch(vmSizes=list(sizes)),
            labels={GPU_SERIES: series, GPU_CLASS: gpu_class},
        ),
        None,
        (),
    )
    for sizes, series, gpu_class in _BUILTIN
)


NO_LABELS: Mapping[str, str] = {}


class RuleSet:
    """Labels per node (R1: vmSize exactly, ignoring ASCII case; R36: node labels; R2: the last rule wins)."""

    def __init__(self, extra: Iterable[LoadedRule]) -> None:
        self.rules = (*BUILTIN_RULES, *extra)
        # Only the label keys some rule reads make two nodes differ: the cache key is their values.
        self._keys = tuple(sorted({key for loaded in self.rules for key in loaded.rule.match.labels}))
        self._cached = cache(self._labels_for)
        self._index = _index(self.rules)

    def labels_for(self, vm_size: str | None, labels: Mapping[str, str] = NO_LABELS) -> dict[str, str]:
        return self._cached(vm_size, tuple(labels.get(key) for key in self._keys))

    def classed_vm_sizes(self) -> dict[str, str]:
        """Every vmSize some rule gives a gpu-class, with that class (for did-you-mean hints)."""
        return {
            size: self.labels_for(size)[GPU_CLASS]
            for size in self._sizes()
            if GPU_CLASS in self.labels_for(size)
        }

    def gpu_classes(self) -> frozenset[str]:
        """Every gpu-class some rule gives, the built-in table's included (for did-you-mean)."""
        return frozenset(c for loaded in self.rules if (c := loaded.rule.labels.get(GPU_CLASS)) is not None)

    def _sizes(self) -> list[str]:
        return sorted({size for loaded in self.rules for size in loaded.rule.match.sizes})

    def _matching(self, vm_size: str | None, values: tuple[str | None, ...]) -> list[LoadedRule]:
        """The rules that match, in order; only those the index names can (issue 32: every
        node against every rule was quadratic, 4,000 one-size rules took minutes)."""
        node = dict(zip(self._keys, values, strict=True))
        wanted = _fold(vm_size) if vm_size is not None else None
        candidates = set(self._index.get(("", wanted), ())) if wanted is not None else set()
        for key, value in node.items():
            candidates.update(self._index.get((key, value), ()) if value is not None else ())
        rules = (self.rules[i] for i in sorted(candidates))
        return [loaded for loaded in rules if _matches(loaded.rule.match, wanted, node)]

    def _labels_for(self, vm_size: str | None, values: tuple[str | None, ...]) -> dict[str, str]:
        labels: dict[str, str] = {}
        for loaded in self._matching(vm_size, values):
            labels.update(loaded.rule.labels)
        return labels

    def sources_for(
        self, vm_size: str | None, labels: Mapping[str, str] = NO_LABELS
    ) -> dict[str, list[LoadedRule]]:
        """Per label key, every rule that sets it for the node, in order: the last one wins (R2).

        Provenance for `taugen explain`: computed for one node on demand, never during a build.
        """
        sources: dict[str, list[LoadedRule]] = {}
        for loaded in self._matching(vm_size, tuple(labels.get(key) for key in self._keys)):
            for key in loaded.rule.labels:
                sources.setdefault(key, []).append(loaded)
        return sources

    def series_to_class(self) -> dict[str, str]:
        """gpu-series -> the gpu-class the same rule gives (for R3 hints)."""
        mapping: dict[str, str] = {}
        for loaded in self.rules:
            series = loaded.rule.labels.get(GPU_SERIES)
            if series is not None:
                mapping[series] = loaded.rule.labels.get(GPU_CLASS, "?")
        return mapping


def _index(rules: Iterable[LoadedRule]) -> dict[tuple[str, str], list[int]]:
    """(``, folded vmSize) or (label key, value) -> the rules, by position, a node must have it to
    match: a rule's vmSizes when it gives them, else the values of the first key it matches."""
    index: dict[tuple[str, str], list[int]] = {}
    for i, loaded in enumerate(rules):
        match = loaded.rule.match
        if match.sizes:
            keys = [("", _fold(size)) for size in match.sizes]
        else:
            first = min(match.labels)
            keys = [(first, value) for value in match.labels[first]]
        for key in dict.fromkeys(keys):
            index.setdefault(key, []).append(i)
    return index


def _matches(match: RuleMatch, vm_size: str | None, labels: Mapping[str, str | None]) -> bool:
    """R1 and R36: every matcher the rule gives holds (both, when it gives both)."""
    if match.sizes and (vm_size is None or all(_fold(size) != vm_size for size in match.sizes)):
        return False
    return all(labels.get(key) in values for key, values in match.labels.items())


def matcher_text(match: RuleMatch) -> str:
    """The rule's matcher as explain prints it: `vmSizes A, B` and/or `labels k in (v, w)`."""
    parts = [f"vmSizes {', '.join(match.sizes)}"] if match.sizes else []
    parts += [f"labels {key} in ({', '.join(values)})" for key, values in match.labels.items()]
    return "; ".join(parts)


def _fold(text: str) -> str:
    # R1 ignores ASCII case only: str.lower() would also fold non-ASCII letters.
    return text.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def gpu_class_error(value: str, series_to_class: dict[str, str]) -> tuple[str, str] | None:
    """(message, hint) when `value` cannot be a gpu-class (R3), else None."""
    if value in series_to_class:
        return (
            f"{value!r} is a gpu-series, a platform identifier, not a gpu-class",
            f"series {value} maps to gpu-class {series_to_class[value]!r}; use that",
        )
    if value.startswith(PLATFORM_PREFIX):
        bare = value.removeprefix(PLATFORM_PREFIX)
        return (
            f"{value!r} is a platform identifier (taugrid-…), not a gpu-class",
            f"name the hardware only, e.g. {bare!r}",
        )
    if why := dns1123_label_error(value):
        return f"gpu-class {value!r} {why}", "use a lower-case name such as h200-141gb"
    if value in RESERVED_GPU_CLASSES:  # issue 17 item 9: its flavor would be the CPU flavor's
        return (
            f"gpu-class {value!r} is reserved: its flavor {PLATFORM_PREFIX}{value} is the CPU-only flavor",
            "name the hardware, e.g. h200-141gb",
        )
    return None


RESERVED_HINT = (
    "a rule may set tau.azure.com/gpu-class, kueue.azure.com/gpu-series and labels under "
    "your own prefix (e.g. node-pool.example.com/role); remove this one"
)


def check_rules(rule_set: RuleSet, sources: TopologyLabels) -> list[Problem]:
    """Every problem of the extra rules (R3, R15, R17, R37), positioned at the offending label."""
    mapping = rule_set.series_to_class()
    domains = domain_keys(sources)
    found: list[Problem] = []
    for loaded in rule_set.rules:
        for key, value in loaded.rule.labels.items():
            if loaded.doc is not None and (problem := _label_problem(loaded, key, value, mapping, domains)):
                found.append(problem)
    return found


def _label_problem(
    loaded: LoadedRule, key: str, value: str, mapping: dict[str, str], domains: frozenset[str]
) -> Problem | None:
    """Positioned only when wrong: finding a position walks the file (issue 32: every label of
    4,000 valid rules looked up its own was quadratic)."""
    found = _label_error(key, value, mapping, domains)
    if found is None:
        return None
    of_key, rule, message, hint = found
    pos = loaded.label_at(key, of_key=of_key)
    assert pos is not None  # a rule from a file has positions
    return pos.problem(rule, message, hint)


def _label_error(
    key: str, value: str, mapping: dict[str, str], domains: frozenset[str]
) -> tuple[bool, Rule, str, str] | None:
    """(at the key?, rule, message, hint) of what is wrong with the label, or None."""
    if key in COMPUTED:
        return (
            True,
            "R17",
            f"label {key} is computed by taugen; a rule cannot set it",
            "remove it from the rule",
        )
    if why := label_key_error(key):
        return True, "R15", f"label key {key!r}: {why}", "fix the key"
    if reserved := reserved_prefix(key):
        why = f": {RESERVED_WHY[reserved]}" if reserved in RESERVED_WHY else ""
        return True, "R17", f"label {key} is in the reserved namespace {reserved}{why}", RESERVED_HINT
    if key in domains:
        message = f"label {key} is read as a topology domain: a rule that sets it moves nodes between domains"
        return (
            True,
            "R37",
            message,
            "remove it: domains come from the labels the provider publishes (topologyLabels, R37)",
        )
    if key == GPU_CLASS and (err := gpu_class_error(value, mapping)):
        return False, "R3", *err
    if why := label_value_error(value):
        return False, "R15", f"label {key}={value!r} {why}", "fix the value"
    return None
