"""The upstream CRDs' CEL rules, restated as taugen's own checks (issue 30).

The API server refuses what a CRD's `x-kubernetes-validations` refuse. taugen ships no upstream
CRD, so each such rule of a kind taugen writes is written again here from its meaning, with a
rule id of taugen's own, beside the kind's model (`ResourceFlavor.checks`): `taugen validate`
and the build's gate evaluate them for a kind whose CRD the user did not give
(validate/upstream.py), and `taugen diff` the rules on an update (`change_checks`).

A check sits at a place in the object, as a CEL rule sits at its schema node
(`spec.tolerations[]`: every item of the list), and is asked only about the mappings found
there: a value of another type is the schema's to report, not a second finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from taugen.core.errors import Rule

Json = dict[str, Any]
Path = tuple[str | int, ...]
EACH = "[]"  # a place's step into every item of a list


@dataclass(frozen=True)
class Breach:
    """What a check refuses, and where: `at` is relative to the check's place."""

    at: Path
    message: str


@dataclass(frozen=True)
class ObjectCheck:
    """A rule on one object: `check` is asked about every mapping at `place`."""

    rule: Rule
    place: str  # dotted, `[]` for every item: "spec.tolerations[]"
    check: Callable[[Json], Iterator[Breach]]
    hint: str

    def breaches(self, obj: Any) -> Iterator[tuple[Path, str]]:
        """(where in the object, message) for every breach of the rule."""
        for where, value in places(obj, self.place):
            for breach in self.check(value):
                yield (*where, *breach.at), breach.message


@dataclass(frozen=True)
class ChangeCheck:
    """A rule on an update (CEL with `oldSelf`): `check(old, new)` is asked when both objects
    have a mapping at `place` and it changed (an unchanged value is never refused: Kubernetes'
    validation ratcheting)."""

    rule: Rule
    place: str  # dotted, no `[]`: "spec"
    check: Callable[[Json, Json], Iterator[Breach]]

    def breaches(self, old: Any, new: Any) -> Iterator[tuple[Path, str]]:
        was, now = dict(places(old, self.place)), dict(places(new, self.place))
        for where, value in now.items():
            if where in was and was[where] != value:
                for breach in self.check(was[where], value):
                    yield (*where, *breach.at), breach.message


def places(obj: Any, place: str) -> Iterator[tuple[Path, Json]]:
    """(path, mapping) for every mapping at `place` in `obj`."""
    found: list[tuple[Path, Any]] = [((), obj)]
    for step in place.split(".") if place else []:
        name, each = step.removesuffix(EACH), step.endswith(EACH)
        found = [((*p, name), v[name]) for p, v in found if isinstance(v, dict) and name in v]
        if each:
            found = [((*p, i), item) for p, v in found if isinstance(v, list) for i, item in enumerate(v)]
    return ((p, v) for p, v in found if isinstance(v, dict))


def text(value: Json, key: str) -> str | None:
    """A string field, or None when it is unset or not a string (the schema's to report)."""
    found = value.get(key)
    return found if isinstance(found, str) else None


def fixed(key: str, what: str) -> Callable[[Json, Json], Iterator[Breach]]:
    """A check that `key` keeps its value (CEL `self == oldSelf` at the field): the API server
    compares only where both sides set it."""

    def check(old: Json, new: Json) -> Iterator[Breach]:
        if old.get(key) is not None and new.get(key) is not None and old[key] != new[key]:
            yield Breach((key,), f"{what} cannot change once the object exists")

    return check


def repeats(items: list[Any]) -> Iterator[int]:
    """The index of every item equal to an earlier one."""
    seen: list[Any] = []
    for index, item in enumerate(items):
        if item in seen:
            yield index
        seen.append(item)
