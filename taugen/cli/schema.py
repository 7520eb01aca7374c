"""taugen schema: the JSON Schemas of the inputs (and Kueue's, with --out)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.core import choices


@click.command("schema")
@click.argument("kind", required=False, type=click.Choice(choices.INPUT_KINDS, case_sensitive=False))
@click.option("--out", type=click.Path(path_type=Path), help="Write every schema into this folder.")
@guarded
def schema_command(kind: str | None, out: Path | None) -> int:
    """Print the JSON Schema of an input KIND, or write them all (Kueue's too) with --out."""
    from taugen.commands.schema import export_schemas, schema_files

    if out is not None:
        click.echo(f"wrote {len(export_schemas(out))} schemas to {out}")
        return EXIT_OK
    files = schema_files()
    chosen = [f"{kind.lower()}.schema.json"] if kind else sorted(files)
    for name in chosen:
        click.echo(files[name].decode(), nl=False)
    return EXIT_OK
