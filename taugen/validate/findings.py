"""A finding: one problem of one resource, with the rule that found it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taugen.core.errors import Problem, Rule
from taugen.validate.resources import Resource


@dataclass(frozen=True, order=True)
class Finding:
    problem: Problem
    subject: str  # Kind/[namespace/]name
    owner: int = field(default=0, compare=False)  # id() of the Resource it belongs to

    @property
    def is_error(self) -> bool:
        return self.problem.severity == "error"


def finding(
    resource: Resource,
    loc: list[Any],
    rule: Rule,
    message: str,
    hint: str = "",
    *,
    key: bool = False,
    warning: bool = False,
) -> Finding:
    problem = resource.at(loc, key=key).problem(rule, message, hint)
    return Finding(problem.as_warning() if warning else problem, resource.ident, id(resource))
