"""`taugen diff` as a core function: two tree specs in, a result out (the CLI prints it)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taugen.context.committed import Committed, TreeFiles, read_committed
from taugen.context.session import ProjectContext, open_project
from taugen.core.errors import InputError, Problem, escaped
from taugen.engines.admission.compare import SimulationDiff, simulate_sides
from taugen.engines.changes.changes import FieldChange, ObjectAction, ObjectChange, compare
from taugen.engines.changes.fleet import fleet_changes
from taugen.engines.changes.guarantees import group_changes, guarantee_changes, held_quotas
from taugen.engines.changes.normalize import orders
from taugen.engines.changes.objects import Identity, PlacedObject, objects
from taugen.engines.changes.risks import IDS, LEVELS, Risk, field_risks, object_risks
from taugen.engines.changes.sources import pair_specs
from taugen.engines.changes.transitions import transition_risks
from taugen.engines.changes.words import field_headline, object_headline
from taugen.models.lock import ClusterLock
from taugen.validate.celrules import RuleSource
from taugen.validate.crd import CrdVersion, load_crds
from taugen.validate.transition import TransitionCheck

FAIL_ON = ("change", "risk", *IDS)


@dataclass(frozen=True)
class DiffOptions:
    base: str
    head: str | None = None  # None: the working tree
    cwd: Path = Path()
    project_file: Path = Path("taugen.yaml")  # its output root is the path when none is given
    simulate: Path | None = None  # a WorkloadSet simulated on both trees (S1-S6)
    crds: tuple[Path, ...] = ()  # --crd: upstream CRDs whose transition rules an update must pass


@dataclass(frozen=True)
class Entry:
    """One headline a reviewer reads, with the risks it carries."""

    ident: Identity
    action: ObjectAction  # of the object
    headline: str
    field: FieldChange | None
    risks: tuple[Risk, ...]


@dataclass(frozen=True)
class ChangePlan:
    add: int
    change: int
    remove: int
    risky: int


@dataclass(frozen=True)
class DiffResult:
    base: str
    head: str
    changes: tuple[ObjectChange, ...]
    entries: tuple[Entry, ...]
    simulation: SimulationDiff | None = None  # --simulate: planned runs the change affects

    @property
    def clusters(self) -> list[str]:
        return sorted({c.ident.cluster for c in self.changes})

    def plan(self, cluster: str | None = None) -> ChangePlan:
        changes = [c for c in self.changes if cluster in (None, c.ident.cluster)]
        entries = [e for e in self.entries if cluster in (None, e.ident.cluster)]
        count = {a: sum(c.action == a for c in changes) for a in ("add", "change", "remove")}
        return ChangePlan(count["add"], count["change"], count["remove"], sum(bool(e.risks) for e in entries))

    def with_risk(self, risk_id: str) -> list[Entry]:
        return [e for e in self.entries if any(r.id == risk_id for r in e.risks)]

    def crosses(self, fail_on: str | None) -> bool:
        """Whether `--fail-on` is crossed: any change, any risk, or a risk of one class."""
        if fail_on is None:
            return False
        if fail_on == "change":
            return bool(self.entries)
        return any(fail_on in ("risk", r.id) for e in self.entries for r in e.risks)


def diff(options: DiffOptions, project: ProjectContext | None = None) -> DiffResult:
    """`project`: the one the calling command opened (report); else opened here, when there is one."""
    path = options.cwd / options.project_file
    if project is not None and project.loaded.doc.path.resolve() != path.resolve():
        project = None  # another project file than the caller's: open the one asked for
    if project is None and path.is_file():
        project = open_project(path)
    old_spec, new_spec = pair_specs(options.base, options.head, _default_path(options, project))
    (base_files, base), (head_files, head) = _read_both(old_spec, new_spec, options.cwd)
    changes = compare(base[1], head[1])
    levels = _levels(base[1], head[1])
    check = TransitionCheck(RuleSource(_crds(options, project)))  # the given CRDs' transition rules
    tenants = (  # T6
        Entry(i, "change", escaped(h), None, r)
        for changes_of in (guarantee_changes, group_changes)  # R51: a group's quota too
        for i, h, r in changes_of(base[1], head[1])
    )
    fleet = (Entry(i, "change", escaped(h), None, r) for i, h, r in fleet_changes(base[1], head[1]))  # §11
    changed = {c.ident.cluster for c in changes}
    held = (  # issue 34 (7): R26's high-water mark above what the inventory has
        Entry(i, "change", escaped(h), None, r)
        for i, h, r in held_quotas(head[1], _inventory_gpus(project, new_spec, changed), changed)
    )
    entries = (*fleet, *tenants, *held, *(e for c in changes for e in _entries(c, levels, check)))
    simulation = _simulation(options, base_files, head_files, project)
    return DiffResult(base[0], head[0], tuple(changes), entries, simulation)


def _inventory_gpus(
    project: ProjectContext | None, head: Committed, clusters: set[str]
) -> dict[str, dict[str, int]]:
    """Cluster -> gpu-class -> allocatable GPUs, for the changed clusters, when HEAD is the
    working tree (a revision's inventories are not the project's). A MultiKueue manager's queue
    holds its workers' GPUs (M2), not its own: it is left out, and so is a cluster whose inputs
    do not plan (build reports them)."""
    if project is None or head.rev is not None:
        return {}
    found: dict[str, dict[str, int]] = {}
    recorded = project.lock.lock.clusters
    for cluster in project.loaded.project.clusters:
        if cluster.name not in clusters or project.manager([cluster]) is not None:
            continue
        if (entry := recorded.get(cluster.name)) is not None:
            found[cluster.name] = _observed_gpus(entry)
            continue
        try:  # never built: its inventory, planned (loading 10,000 nodes took 0.8 s, issue 36)
            found[cluster.name] = {q.gpu_class: q.observed_gpus for q in project.cluster(cluster).quotas}
        except InputError:
            continue
    return found


def _observed_gpus(entry: ClusterLock) -> dict[str, int]:
    """Issue 36: the inventory's GPUs per gpu-class at the lock's build. A quota is the larger of
    its GPUs and its high-water mark (R26), so it is the GPUs themselves unless held above them,
    and for those the lock records the GPUs (heldAboveInventory)."""
    return entry.gpuQuota | entry.heldAboveInventory


def _simulation(
    options: DiffOptions, base: TreeFiles, head: TreeFiles, project: ProjectContext | None
) -> SimulationDiff | None:
    if options.simulate is None:
        return None
    workloads, path = options.cwd / options.simulate, options.cwd / options.project_file
    return simulate_sides(workloads, path, base, head, options.simulate.as_posix(), project)


def _crds(options: DiffOptions, project: ProjectContext | None) -> dict[tuple[str, str], CrdVersion]:
    """The project's `crds:` (when there is a project file), then `--crd`'s (issue 30)."""
    sources = (*(project.loaded.crd_sources() if project is not None else ()), *options.crds)
    return {key: crd for source in sources for key, crd in load_crds(source).items()}


def _default_path(options: DiffOptions, project: ProjectContext | None) -> Path:
    if project is None:
        return Path("out")
    given = project.loaded.output_root(None)
    if given.is_symlink():  # issue 32: as build refuses it (write/safety.py), never followed
        message = f"output root {given} is a symbolic link (to {given.readlink()}): diff follows none"
        raise InputError([Problem(given, 0, 0, "io", message, "replace the link with the folder")])
    root = given.resolve()
    try:
        return root.relative_to(options.cwd.resolve())
    except ValueError:
        return root


def _read_both(
    old: Committed, new: Committed, cwd: Path
) -> tuple[tuple[TreeFiles, tuple[str, dict[Identity, PlacedObject]]], ...]:
    """Both sides, reporting the problems of both together (STYLE.md: do not stop at the first)."""
    found: list[tuple[TreeFiles, tuple[str, dict[Identity, PlacedObject]]]] = []
    problems = []
    parsed: dict[bytes, list[Any]] = {}
    for spec in (old, new):
        try:
            tree = read_committed(spec, cwd)
            found.append((tree, (tree.label, objects(tree, parsed))))
        except InputError as err:
            problems.extend(err.problems)
    if problems:
        raise InputError(problems)
    return tuple(found)


def _levels(*sides: Mapping[Identity, PlacedObject]) -> frozenset[str]:
    """Node labels that place a node in a topology: taugen's R10 levels and any Topology's."""
    found = set(LEVELS)
    for side in sides:
        for ident, placed in side.items():
            if ident.kind == "Topology":
                found.update(orders("Topology", placed.obj).get(("spec", "levels"), []))
    return frozenset(found)


def _entries(change: ObjectChange, levels: frozenset[str], check: TransitionCheck) -> Iterator[Entry]:
    """Headlines hold the tree's names and values: a control character in them is shown as its
    escape (issue 32: a newline in a label value started a heading of its own in the comment)."""
    if change.action != "change":
        yield Entry(change.ident, change.action, escaped(object_headline(change)), None, object_risks(change))
        return
    refused = transition_risks(check, change)
    for field, more in zip(change.fields, refused, strict=True):
        headline = escaped(f"{change.ident.title}: {field_headline(change.ident.kind, field)}")
        risks = tuple(sorted({*field_risks(change, field, levels), *more}))
        yield Entry(change.ident, change.action, headline, field, risks)
