"""Flux's healthCheckExprs verdict on an object, as kustomize-controller reaches it (fluxcd/pkg
runtime/cel status_evaluator.go, RFC 0009), on cel-python.

Flux parses each expression without declarations and evaluates it with the object's top-level
fields as variables. First, a status.observedGeneration (an int) that differs from
metadata.generation is InProgress; then inProgress, failed and current are tried in that
order, the first true wins, none true is InProgress. An evaluation error (an absent variable:
"no such attribute") or a result that is not a boolean fails the check: the object is not
ready and the Kustomization not Ready.

cel-python differs from cel-go in one way that matters here: its has(e.f) is false when `e`
itself cannot be evaluated, where cel-go's is the error. The evaluator below gives cel-go's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import celpy
import lark
from celpy import celtypes
from celpy.adapter import json_to_cel
from celpy.evaluation import CELEvalError, Evaluator

Verdict = Literal["Current", "Failed", "InProgress"]
ORDER: tuple[tuple[str, Verdict], ...] = (
    ("inProgress", "InProgress"),
    ("failed", "Failed"),
    ("current", "Current"),
)


class HealthCheckError(Exception):
    """The expression could not be evaluated to a boolean: Flux reports the check failed."""


class _CelGoEvaluator(Evaluator):
    def macro_has_eval(self, exprlist: lark.Tree[Any]) -> Any:
        """has(e.f): the error of `e`, as cel-go gives it, else cel-python's answer."""
        node: Any = exprlist
        while isinstance(node, lark.Tree) and node.data != "member_dot":
            node = node.children[0]
        if isinstance(node, lark.Tree):
            inner = self.visit(node.children[0])
            if isinstance(inner, CELEvalError):
                return inner
        return super().macro_has_eval(exprlist)


class _Runner(celpy.InterpretedRunner):
    def evaluate(self, context: Any) -> Any:
        return _CelGoEvaluator(ast=self.ast, activation=self.new_activation()).evaluate(context)


_ENV = celpy.Environment(runner_class=_Runner)


def evaluate(expression: str, obj: Mapping[str, Any]) -> bool:
    """One expression on the object's top-level fields; HealthCheckError unless a boolean."""
    program = _ENV.program(_ENV.compile(expression))
    try:
        result = program.evaluate({key: json_to_cel(value) for key, value in obj.items()})
    except CELEvalError as err:
        raise HealthCheckError(
            f"failed to evaluate the CEL expression {expression!r}: {err.args[0]}"
        ) from None
    if isinstance(result, CELEvalError):
        raise HealthCheckError(f"failed to evaluate the CEL expression {expression!r}: {result.args[0]}")
    if not isinstance(result, celtypes.BoolType):
        raise HealthCheckError(f"failed to evaluate CEL expression as boolean: {expression!r}")
    return bool(result)


def verdict(check: Mapping[str, str], obj: Mapping[str, Any]) -> Verdict:
    """Flux's status of `obj` under one healthCheckExprs entry."""
    if not check.get("current"):
        raise HealthCheckError("expression Current not specified")
    observed, generation = _int(obj, "status", "observedGeneration"), _int(obj, "metadata", "generation")
    if observed is not None and generation is not None and observed != generation:
        return "InProgress"
    for key, status in ORDER:
        if check.get(key) and evaluate(check[key], obj):
            return status
    return "InProgress"


def _int(obj: Mapping[str, Any], *path: str) -> int | None:
    """unstructured.NestedInt64: the value only when every step is a map and it is an int."""
    value: Any = obj
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value if isinstance(value, int) and not isinstance(value, bool) else None
