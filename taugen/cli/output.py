"""Printing: problems on stderr, a command's data as text for people or json/yaml for machines."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taugen.cli.stdin import named

if TYPE_CHECKING:  # annotations only: --help and a TAB press never import the errors
    from taugen.core.errors import Problem


def print_problems(problems: Iterable[Problem], limit: int | None = None) -> None:
    """`path:line:col: error: message`, one a line on stderr; past `limit`, how many more."""
    items = list(problems)
    shown = items if limit is None else items[:limit]
    for problem in shown:
        click.echo(named(problem.render(Path.cwd())), err=True)
    if len(items) > len(shown):
        click.echo(f"… and {len(items) - len(shown)} more", err=True)


def print_data(fmt: str, as_json: Callable[[Any], str], as_text: Callable[[Any], str], data: Any) -> None:
    """text (or table) for people; json, or the same as yaml, for machines."""
    if fmt in ("json", "yaml"):
        text = as_json(data)
        if fmt == "yaml":
            import json

            import yaml

            text = yaml.safe_dump(json.loads(text), sort_keys=False, allow_unicode=True)
        click.echo(named(text), nl=False)
        return
    click.echo(named(as_text(data)), nl=False)


def print_text(text: str) -> None:
    """A rendered report as it is (no newline added)."""
    click.echo(named(text), nl=False)
