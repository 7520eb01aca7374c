"""taugen's own checks of the upstream CRDs' CEL rules (api/rules.py, issue 30).

For an object of a kind whose CRD the user did not give, these refuse what the CRD's rules
would, at the offending value, with taugen's rule ids and words: `taugen validate` and the
build's gate ask `findings`, `taugen diff` asks `refusals` of each update. For a kind whose CRD
is given (--crd, `crds:`), the CRD's own rules speak instead (cel.py, transition.py), in its
words: the same problem is never reported twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from taugen.api.checks import Key, change_checks, object_checks
from taugen.api.rules import Path
from taugen.core.errors import Rule
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource


def key_of(obj: Any) -> Key | None:
    """(apiVersion, kind) of an object, or None for what is not one."""
    if isinstance(obj, dict) and isinstance(obj.get("apiVersion"), str) and isinstance(obj.get("kind"), str):
        return obj["apiVersion"], obj["kind"]
    return None


def findings(resources: Iterable[Resource], given: frozenset[Key]) -> Iterator[Finding]:
    """Every breach of a check of taugen's own, on the objects of kinds whose CRD is not given."""
    for resource in resources:
        key = key_of(resource.obj)
        if key is None or key in given:
            continue
        for check in object_checks(key):
            for at, message in check.breaches(resource.obj):
                yield finding(resource, list(at), check.rule, message, check.hint)


@dataclass(frozen=True, order=True)
class Refused:
    """An update a check of taugen's own refuses: where in the object, which rule, and why."""

    path: Path
    rule: Rule
    message: str


def refusals(old: Any, new: Any, given: frozenset[Key]) -> list[Refused]:
    """What taugen's own transition checks refuse of updating `old` to `new` (none when the
    kind changes, or its CRD is given: then its own transition rules speak)."""
    key = key_of(new)
    if key is None or key != key_of(old) or key in given:
        return []
    found = (Refused(at, c.rule, message) for c in change_checks(key) for at, message in c.breaches(old, new))
    return sorted(found)
