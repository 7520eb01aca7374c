"""R50: a project's `priorityTiers:`, checked across entries at their positions in taugen.yaml
(each entry's own fields are checked by its model, taugen/models/tiers.py)."""

from __future__ import annotations

from collections.abc import Iterator

from taugen.core.errors import Problem
from taugen.load.document import Document
from taugen.models.project import Project
from taugen.models.tiers import TAUGRID_TIERS, class_name

BLOCK = "priorityTiers"


def check_tiers(doc: Document, project: Project) -> list[Problem]:
    return [*_names(doc, project), *_values(doc, project)]


def _names(doc: Document, project: Project) -> Iterator[Problem]:
    seen: set[str] = set()
    for i, tier in enumerate(project.priorityTiers):
        if tier.name in seen:
            yield doc.at([BLOCK, i, "name"]).problem(
                "R50",
                f"tier {tier.name!r} is declared twice: both would be {class_name(tier.name)}",
                "declare each tier once",
            )
        seen.add(tier.name)


def _values(doc: Document, project: Project) -> Iterator[Problem]:
    """Two tiers of one value would be one tier to Kueue and the scheduler: each value once."""
    taken = {value: f"TauGrid's tier {name}" for name, value in TAUGRID_TIERS}
    for i, tier in enumerate(project.priorityTiers):
        other = taken.get(tier.value)
        if other is not None:
            used = sorted({*taken, *(t.value for t in project.priorityTiers)})
            yield doc.at([BLOCK, i, "value"]).problem(
                "R50",
                f"tier {tier.name} has value {tier.value}, as {other} does: Kueue and the scheduler "
                "would order them as one tier",
                f"choose a value no other tier has (taken: {', '.join(map(str, used))})",
            )
        taken.setdefault(tier.value, f"tier {tier.name}")
