"""`Project.clusters` as the union of the schedulers' cluster entries, discriminated by `scheduler`.

The entries live in the scheduler packages (taugen/schedulers/<name>/model.py), above this floor;
schedulers/registry.py hands them down once, at import, and `complete` finishes `Project`
with them. Until then `Project` is not fully defined and pydantic refuses to validate it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_
from typing import Annotated, Any, cast

from pydantic import Discriminator, GetJsonSchemaHandler, Tag
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from taugen.models.project import Cluster, Project

Entry = tuple[str, type[Cluster]]  # (the `scheduler:` value, its cluster entry), the default first


class _SchemaByScheduler:
    """The JSON Schema of the union: if `scheduler: kai` then KAI's entry, ..., else the default's.
    Unlike a oneOf, a validator then reports the chosen variant's own errors."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        default, *others = handler(schema)["oneOf"]  # in the order of the union, the default first
        found: JsonSchemaValue = default
        for name, variant in reversed(list(zip(self.names[1:], others, strict=True))):
            choose = {"properties": {"scheduler": {"const": name}}, "required": ["scheduler"]}
            found = {"if": choose, "then": variant, "else": found}
        return found


def entry_union(entries: Sequence[Entry]) -> Any:
    """The union, in the order given. The tags carry brackets: load/validate.py drops a union's tag
    from an error's path as it does pydantic's other markers, so a position stays the key's."""
    names = [name for name, _ in entries]
    keys = " or ".join(repr(name) for name in names)
    variants = [Annotated[model, Tag(f"[{name}]")] for name, model in entries]

    def scheduler_of(value: Any) -> str | None:
        """The variant's tag: `scheduler`, the default when omitted; None (an error) for another."""
        found = (
            value.get("scheduler", names[0]) if isinstance(value, dict) else getattr(value, "scheduler", None)
        )
        return f"[{found}]" if found in names else None

    return Annotated[
        reduce(or_, variants),
        Discriminator(
            scheduler_of,
            custom_error_type="scheduler_enum",
            custom_error_message=f"scheduler: Input should be {keys}",
            custom_error_context={"expected": keys},
        ),
        _SchemaByScheduler(names),
    ]


def complete(entries: Sequence[Entry]) -> None:
    """Finish `Project` with the union of `entries` (again, when a test registers another)."""
    union = entry_union(entries)
    Project.model_fields["clusters"].annotation = cast(Any, list)[union]  # a rebuild keeps it
    Project.model_rebuild(force=True, _types_namespace={"ClusterEntry": union})
