"""Exit codes: the one place that maps errors to them (STYLE.md; pre-commit's error_handler)."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from taugen.cli.output import print_problems

EXIT_OK, EXIT_FOUND, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
ISSUES = "https://github.com/tau-azure/taugen/issues"


def guarded(command: Callable[..., int]) -> Callable[..., None]:
    """A command returns its exit code or raises; this exits with it. No traceback for input errors."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        from taugen.core.errors import (  # not for --help (issue 21)
            FoundProblems,
            InputError,
            TaugenError,
            bounded,
        )

        try:
            code = command(*args, **kwargs)
        except InputError as err:
            print_problems(err.problems)
            code = EXIT_INPUT
        except FoundProblems as err:  # lines and messages echo values: one line each (issue 17 item 9)
            for line in err.lines:
                click.echo(bounded(line), err=True)
            click.echo(f"error: {bounded(str(err))}", err=True)
            code = EXIT_FOUND
        except TaugenError as err:
            click.echo(f"error: {bounded(str(err))}", err=True)
            code = EXIT_INPUT
        except click.ClickException:  # a usage error a command found: click prints it, exit 2
            raise
        except KeyboardInterrupt:  # Ctrl-C: one line; a build undoes (or the next finishes) its write
            click.echo("interrupted: out/ and taugen.lock are whole (exit 130)", err=True)
            code = EXIT_INTERRUPTED
        except Exception:  # a bug: say where to report it
            click.echo(traceback.format_exc(), err=True)
            click.echo(f"internal error: this is a bug in taugen; please report it at {ISSUES}", err=True)
            code = EXIT_INTERNAL
        sys.exit(code)

    return run
