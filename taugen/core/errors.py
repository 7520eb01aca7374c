"""Errors are data (STYLE.md): problems with positions, and one root exception."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

# Issue 17 item 9: a message quotes input values. Printed whole, a 1 MB value floods stderr and
# a newline in one starts a line of its own (`::error::…` is a GitHub Actions command).
SHOWN_RUN = 80  # a value longer than LONG_RUN is cut to its first SHOWN_RUN characters
LONG_RUN = 160  # runs up to this long (most paths) are kept whole
MAX_TEXT = 2000
_LONG = re.compile(rf"\S{{{LONG_RUN + 1},}}")


def escaped(text: str) -> str:
    """`text` on one line: control and other unprintable characters as Python escapes (\\n)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def bounded(text: str) -> str:
    """`text` safe to print in a message: escaped, long values cut (with their length)."""
    if len(text) <= LONG_RUN and text.isprintable():
        return text  # the common case, checked first: a build may report 100,000 problems
    text = _LONG.sub(lambda m: f"{m[0][:SHOWN_RUN]}… ({len(m[0])} characters)", escaped(text))
    return text if len(text) <= MAX_TEXT else f"{text[:MAX_TEXT]}… ({len(text)} characters in all)"


# Every rule id a problem names (printed as `[rule]`, and in `-o json`): a closed set, so
# that mypy catches a misspelt one. SPEC's ids first, then taugen's own, by where they arise.
Rule = Literal[
    # SPEC: node labels (R1-R17), outputs (R20-R41), render (§7, K1-K5), simulate (S1-S6);
    # K6 (JobSet runs) is taugen's own, proposed for SPEC §8
    "R1", "R2", "R3", "R4", "R10", "R11", "R12", "R13", "R14", "R15", "R16", "R17",
    "R20", "R21", "R22", "R23", "R24", "R25", "R26", "R27", "R28", "R29", "R30",
    "R31", "R32", "R33", "R34", "R35", "R36", "R37", "R38", "R39", "R40", "R41",
    "R42", "R43",  # SPEC §14: a cluster's own topology levels, and a run naming one
    "R44", "R45",  # SPEC §14: device resources (extraResources) and a request no queue covers
    "R46",  # SPEC §14: a topology source no GPU node of a class carries
    "R47",  # SPEC §15: fallback gpu classes (an ordered list) and a tenant's flavorFungibility
    "R48",  # SPEC §15: a guaranteed tenant's preemption settings
    "R49",  # SPEC §15: a Kueue cluster's own configuration as recorded (fair sharing)
    "R50",  # SPEC §15: priority tiers beside TauGrid's two, and a run or profile naming one
    "R51",  # SPEC §15: tenant groups, nested Kueue cohorts with quota of their own
    "R52",  # SPEC §15: simulate's cycles and the WorkloadSet's timestamps (RFC 3339, year >= 1)
    "§7", "K1", "K2", "K3", "K4", "K5", "K6", "S1", "S2", "S3", "S4", "S5", "S6",
    # SPEC §10: tenants with guaranteed GPU quota (cohorts)
    "T2", "T4", "T6", "T7",
    # SPEC §11: a fleet of clusters (MultiKueue)
    "M1", "M2", "M3", "M4",
    # reading and writing files
    "io", "path", "yaml", "limits", "output", "usage",
    # the inputs and the lock
    "project", "cluster", "inventory", "profile", "deprecated", "run", "lock", "tree", "diff-source", "drift",
    # `taugen validate`: schemas and the rules across objects (validate/semantic.py, kai.py, policy.py)
    "schema", "crd", "kubeconform", "kustomization", "canonical-quantity",
    "clusterqueue-flavor", "covered-resources", "flavor-nodes", "flavor-topology", "hostname-last",
    "localqueue-clusterqueue", "namespace-selector", "node-label", "node-levels", "node-name",
    "one-group", "priority-pairs", "cohort-shape",
    "kai-leaf-quota", "kai-node-levels", "kai-queue-name", "kai-queue-parent", "kai-reserved-queue",
    "cel", "size", "duplicate", "name",  # issue 20: what the API server, Argo CD or kustomize refuse
    # issue 30: the upstream CRDs' CEL rules as taugen's own checks (api/rules.py), when no CRD is given
    "tas-node-labels", "taint-effect", "toleration-key", "toleration-operator", "toleration-value",
    "toleration-seconds", "toleration-effect", "borrowing-cohort", "fungibility-preference",
    "preemption-borrow", "unique-levels", "cluster-source", "unique-clusters",
    "immutable-field", "kai-level-labels", "tas-flavor-fixed",  # on an update (`taugen diff`)
    "server",  # issue 31: what the user's own API server refused in a dry run (validate --server)
]  # fmt: skip
RULES: frozenset[str] = frozenset(get_args(Rule))
Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    """One finding in one input file; line and col are 1-based (0 when unknown)."""

    path: Path
    line: int
    col: int
    rule: Rule
    message: str = field(compare=False)
    hint: str = field(default="", compare=False)
    severity: Severity = field(default="error", compare=False)

    def __post_init__(self) -> None:
        # One place for every message (issue 17 item 9); frozen, so set through object.
        object.__setattr__(self, "message", bounded(self.message))
        object.__setattr__(self, "hint", bounded(self.hint))

    def as_warning(self) -> Problem:
        return Problem(self.path, self.line, self.col, self.rule, self.message, self.hint, "warning")

    def render(self, relative_to: Path | None = None) -> str:
        shown = escaped(_shown(self.path, relative_to))
        where = f"{shown}:{self.line}:{self.col}" if self.line else f"{shown}"
        text = f"{where}: {self.severity}: {self.message} [{self.rule}]"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


def _shown(path: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


class TaugenError(Exception):
    """Root of every error taugen raises on purpose."""


class InputError(TaugenError):
    """Bad input or usage (exit 2): carries every problem found, sorted by position."""

    def __init__(self, problems: list[Problem]) -> None:
        unique = {(p.path, p.line, p.col, p.rule, p.message): p for p in problems}
        self.problems = sorted(unique.values())
        super().__init__("\n".join(p.render() for p in self.problems))


class FoundProblems(TaugenError):
    """The command ran and found a problem (exit 1), e.g. a tree that would not validate."""

    def __init__(self, summary: str, lines: list[str]) -> None:
        self.lines = lines
        super().__init__(summary)


class ProblemCollector:
    """Collects problems of a stage; raises them together (STYLE.md: do not stop at the first)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        self.problems.extend(problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)
