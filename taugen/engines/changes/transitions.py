"""`rejected` risks from the CRDs' own transition rules (CEL with `oldSelf`, issue 20).

Each changed object is checked as the API server checks an update of its old self
(validate/transition.py): a broken rule is a `rejected` risk naming the rule's message and where
it sits; a rule cel-python cannot evaluate is one too ("may be refused"), never passed. A kind
whose CRD is not given is checked by taugen's own transition checks (validate/upstream.py,
issue 30). The risk goes on the field changes under the rule's node (all of the object's when
none is).
"""

from __future__ import annotations

from collections.abc import Mapping

from taugen.engines.changes.changes import ObjectChange
from taugen.engines.changes.risks import Risk
from taugen.validate.transition import Refusal, TransitionCheck
from taugen.validate.upstream import Refused, refusals


def transition_risks(check: TransitionCheck, change: ObjectChange) -> list[tuple[Risk, ...]]:
    """For each of the change's fields (in order), the transition rules its update breaks."""
    found: list[tuple[Risk, ...]] = [() for _ in change.fields]
    old, new = change.old, change.new
    if change.action != "change" or not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return found
    own = refusals(dict(old), dict(new), check.source.given_kinds())
    every: list[Refusal | Refused] = [*check.refusals(dict(old), dict(new)), *own]
    for refusal in every:
        under = [i for i, f in enumerate(change.fields) if _related(f.path, refusal.path)]
        for index in under or range(len(change.fields)):
            found[index] = (*found[index], _risk(refusal))
    return found


def _related(field: tuple[object, ...], rule: tuple[object, ...]) -> bool:
    """The field lies under the rule's node, or holds it (list items compared by their field)."""
    names = rule[: next((i for i, step in enumerate(rule) if isinstance(step, int)), len(rule))]
    common = min(len(field), len(names))
    return field[:common] == names[:common]


def _risk(refusal: Refusal | Refused) -> Risk:
    where = ".".join(str(step) for step in refusal.path) or "the object"
    if isinstance(refusal, Refused):
        return Risk("rejected", f"taugen's rule {refusal.rule} at {where}: {refusal.message}")
    if not refusal.checked:
        return Risk("rejected", f"may be refused by the CRD's rule at {where}: {refusal.message}")
    return Risk("rejected", f"the CRD's rule at {where}: {refusal.message}")
