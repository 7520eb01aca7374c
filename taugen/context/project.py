"""The project as every command sees it, and the one answer to "which cluster?" (issue 18).

`--cluster NAME` selects one cluster, and no option selects all of them (`select_clusters`);
a command about one cluster takes `--cluster`, else the cluster its own input file names,
else the project's only cluster (`pick_cluster`). Every refusal carries the rule id
`cluster` and points where the name was given: the project's `clusters:` for the option,
the input file's own key when the file named it.
"""

from __future__ import annotations

from taugen.core.errors import InputError, Rule
from taugen.load.document import Position
from taugen.load.project import LoadedProject
from taugen.models.project import Cluster

RULE: Rule = "cluster"


def select_clusters(loaded: LoadedProject, name: str | None) -> list[Cluster]:
    """--cluster NAME: that cluster; no option: every cluster of the project, in order."""
    if name is None:
        return list(loaded.project.clusters)
    return [pick_cluster(loaded, name)]


def pick_cluster(loaded: LoadedProject, name: str | None, named_at: Position | None = None) -> Cluster:
    """One cluster: `name` (from --cluster, or from an input file whose key is at `named_at`),
    else the project's only one."""
    clusters = loaded.project.clusters
    known = ", ".join(c.name for c in clusters)
    if name is None:
        if len(clusters) == 1:
            return clusters[0]
        where = named_at or loaded.doc.at(["clusters"])
        message = f"the project has {len(clusters)} clusters"
        hint = f"add `cluster:` with one of {known}" if named_at else f"pass --cluster with one of: {known}"
        raise InputError([where.problem(RULE, message, hint)])
    found = [c for c in clusters if c.name == name]
    if found:
        return found[0]
    where = named_at or loaded.doc.at(["clusters"])
    subject = f"cluster {name!r}" if named_at is not None else f"--cluster {name}"
    raise InputError(
        [where.problem(RULE, f"{subject}: the project has no such cluster", f"choose one of: {known}")]
    )
