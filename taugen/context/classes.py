"""gpu-classes a user names that no rule gives: did-you-mean against the rules (issue 21).

The known classes are those some rule gives, the built-in table's (R2) and each cluster's
extra rules'. A class that no rule gives can never have a node, so it is most likely a typo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set

from taugen.core.errors import Problem
from taugen.core.suggest import CLOSE, closest
from taugen.load.profiles import BUILTIN_PROFILES, LoadedProfile
from taugen.models.profile import classes_of
from taugen.resolve.rules import RuleSet


def known_classes(rule_sets: Iterable[RuleSet]) -> frozenset[str]:
    """Every gpu-class a rule of these clusters gives, the built-in table's included."""
    return frozenset(c for rules in rule_sets for c in rules.gpu_classes())


def unknown_class_hint(value: str, known: Set[str]) -> str:
    """`did you mean 'h200-141gb'?` for a near miss, else the classes there are."""
    close = closest(value, known, CLOSE)
    if close is not None:
        return f"did you mean {close!r}?"
    return f"the rules give {', '.join(sorted(known))}; or add a rule that gives {value}"


def profile_class_warnings(profiles: Sequence[LoadedProfile], known: Set[str]) -> list[Problem]:
    """A profile whose gpu-class no rule gives but is near one a rule gives (a typo).

    A warning, never an error: the catalog lists such a profile as not ready (R30). The built-in
    profiles are not the user's to fix: one for hardware no rule here gives (gb200-186gb on a
    cluster of b200-180gb) says nothing.
    """
    found = []
    for loaded in profiles:
        listed = loaded.profile.policy.gpu_class
        if loaded.doc.path.is_relative_to(BUILTIN_PROFILES):
            continue
        for i, value in enumerate(classes_of(listed)):
            if value in known or closest(value, known, CLOSE) is None:
                continue
            name = loaded.profile.metadata.name
            never = (
                "so it is never ready (R30)" if not isinstance(listed, list) else "so it is never used (R47)"
            )
            message = f"profile {name}: no rule gives gpu-class {value!r}, {never}"
            where = loaded.doc.at(["policy", "gpu_class", *([i] if isinstance(listed, list) else [])])
            found.append(where.problem("profile", message, unknown_class_hint(value, known)).as_warning())
    return found
