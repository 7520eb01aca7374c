"""What a command built, held until the process ends (issue 36; cli/ending.py says why)."""

from __future__ import annotations

from collections.abc import Callable

import click


class Held:
    """What an invocation's commands built, held until the process ends: the context's `obj`
    when `ending.run` runs the group."""

    def __init__(self) -> None:
        self.objects: list[object] = []


def keep() -> Callable[[object], None]:
    """Where a command hands what it built: held when the process ends through `ending.run`,
    else nowhere (click's CliRunner, a caller of `main`)."""
    context = click.get_current_context(silent=True)
    held = None if context is None else context.find_root().obj
    return held.objects.append if isinstance(held, Held) else _let_go


def _let_go(_: object) -> None:
    """Keep nothing: the caller's reference is the last, and it is freed as the command returns."""
