"""Load the project file and everything it names (SPEC §1.1)."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

from taugen.core.errors import InputError, Problem, ProblemCollector, Rule
from taugen.load.document import Document, Loc, Position, load_one
from taugen.load.fleet import check_fleet
from taugen.load.inventory import Inventory, load_inventory
from taugen.load.native import Early
from taugen.load.profiles import BUILTIN_PROFILES, LoadedProfile, load_profiles, profile_files
from taugen.load.rules import LoadedRule, load_rules
from taugen.load.tiers import check_tiers
from taugen.load.validate import validate
from taugen.models.project import Cluster, Project

RULE: Rule = "project"
LOCK_NAME = "taugen.lock"


@dataclass(frozen=True)
class LoadedProject:
    project: Project
    doc: Document
    root: Path  # folder of the project file: paths are relative to it

    @property
    def lock_path(self) -> Path:
        return self.root / LOCK_NAME

    def output_root(self, override: Path | None) -> Path:
        return override if override is not None else self.root / self.project.output

    def profile_sources(self) -> list[Path]:
        listed = self.project.profiles
        return [self.root / p for p in listed] if listed is not None else [BUILTIN_PROFILES]

    def outside(self, path: Path) -> Path | None:
        """Where `path` really leads when a symbolic link on the way takes it out of the
        project, else None (issue 32: what taugen.yaml names stays in the project; the model
        refuses an absolute path or a `..` that climbs out, this the links)."""
        real = path.resolve()
        return None if real == self.root or self.root in real.parents else real

    def check_inside(self, path: Path, loc: Loc) -> Problem | None:
        """A problem at `loc` when `path` leads out of the project through a link."""
        real = self.outside(path)
        if real is None:
            return None
        message = f"{path} leads to {real}, outside the project {self.root}, through a symbolic link"
        hint = "name a file or folder inside the project, not a link out of it"
        return self.doc.at(loc).problem(RULE, message, hint)

    def crd_sources(self) -> tuple[Path, ...]:
        """`crds:` as files and folders: a glob expanded (sorted), each entry found or an error
        at its position (issue 30)."""
        found: list[Path] = []
        problems = ProblemCollector()
        for i, entry in enumerate(self.project.crds or []):
            matches = _expanded(self.root, entry)
            problems.extend([p for m in matches if (p := self.check_inside(m, ["crds", i])) is not None])
            if not matches:
                what = "matches no file" if glob.has_magic(entry) else "is no file or folder"
                hint = "paths and globs in crds: are relative to taugen.yaml"
                problems.add(self.doc.at(["crds", i]).problem("io", f"crds: {entry!r} {what}", hint))
            found += matches
        problems.raise_if_any()
        return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class ClusterInputs:
    cluster: Cluster
    inventory: Inventory
    rules: list[LoadedRule]


def _expanded(root: Path, entry: str) -> list[Path]:
    if glob.has_magic(entry):  # relative and inside the project (models/base.py ProjectPath)
        return sorted(p for p in root.glob(entry) if p.is_file())
    path = root / entry
    return [path] if path.exists() else []


def load_project(path: Path) -> LoadedProject:
    if not path.exists() and not path.is_symlink():
        message = f"no project file {path}"
        hint = "without -c taugen looks here and in every parent folder: pass -c FILE, or `taugen init` one"
        raise InputError([Problem(path, 0, 0, "io", message, hint)])
    _check_not_linked(path)
    doc = load_one(path)
    project = validate(Project, doc, RULE)
    _check_unique(doc, project)
    return LoadedProject(project, doc, path.resolve().parent)


def _check_not_linked(path: Path) -> None:
    """Issue 32: the project root is the folder of taugen.yaml, never reached through a symbolic
    link: a linked taugen.yaml (or a linked folder on its way) made the build read and write the
    link's target's project. The working folder and its parents are the system's own path (the
    kernel's, without links); every folder below the part the file shares with it is checked."""
    file = Path(os.path.normpath(path.absolute()))
    anchor = Path(os.path.commonpath([Path.cwd(), file.parent]))
    below = [f for f in (file, *file.parents) if anchor in f.parents]
    linked = next((f for f in below if f.is_symlink()), None)
    if linked is not None:
        message = (
            f"{linked} is a symbolic link (to {linked.readlink()}): the project would be the link's target's"
        )
        hint = "name the project file by its own path (-c), not through a link"
        raise InputError([Problem(path, 0, 0, "io", message, hint)])


def _check_unique(doc: Document, project: Project) -> None:
    problems = ProblemCollector()
    seen: set[str] = set()
    for i, cluster in enumerate(project.clusters):
        if cluster.name in seen:
            problems.add(
                doc.at(["clusters", i, "name"]).problem(
                    RULE, f"cluster {cluster.name!r} is listed twice", "cluster names are unique"
                )
            )
        seen.add(cluster.name)
        namespaces: set[str] = set()
        for j, tenant in enumerate(cluster.tenants):
            if tenant.namespace in namespaces:
                problems.add(
                    doc.at(["clusters", i, "tenants", j, "namespace"]).problem(
                        RULE,
                        f"tenant namespace {tenant.namespace!r} is listed twice",
                        "list each namespace once",
                    )
                )
            namespaces.add(tenant.namespace)
    problems.extend(check_fleet(doc, project))  # M3
    problems.extend(check_tiers(doc, project))  # R50
    problems.raise_if_any()


def load_cluster_inputs(loaded: LoadedProject, cluster: Cluster, early: Early | None = None) -> ClusterInputs:
    """The cluster's inventory and rules; problems of every file are reported together. `early`:
    an early start of an inventory's parse (issue 36), taken only for its very text."""
    problems = ProblemCollector()
    inventory: Inventory | None = None
    rules: list[LoadedRule] = []
    index = loaded.project.clusters.index(cluster)
    named: list[tuple[str, Loc]] = [(cluster.inventory, ["clusters", index, "inventory"])]
    named += [(r, ["clusters", index, "rules", i]) for i, r in enumerate(cluster.rules)]
    problems.extend([p for path, loc in named if (p := loaded.check_inside(loaded.root / path, loc))])
    problems.raise_if_any()
    try:
        inventory = load_inventory(loaded.root / cluster.inventory, early=early)
    except InputError as err:
        problems.extend(_anchored(err, loaded.doc.at(["clusters", index, "inventory"])))
    for i, rules_file in enumerate(cluster.rules):
        try:
            rules.extend(load_rules(loaded.root / rules_file))
        except InputError as err:
            problems.extend(_anchored(err, loaded.doc.at(["clusters", index, "rules", i])))
    problems.raise_if_any()
    assert inventory is not None
    return ClusterInputs(cluster, inventory, rules)


def _anchored(err: InputError, reference: Position) -> list[Problem]:
    """A file that cannot be read is reported where the project names it."""
    return [
        reference.problem(p.rule, f"{p.path.as_posix()}: {p.message}", p.hint) if not p.line else p
        for p in err.problems
    ]


def load_project_profiles(loaded: LoadedProject) -> list[LoadedProfile]:
    if loaded.project.profiles is not None:
        sources: list[tuple[Path, Loc]] = [
            (loaded.root / p, ["profiles", i]) for i, p in enumerate(loaded.project.profiles)
        ]
        files = [(f, loc) for source, loc in sources if source.is_dir() for f in profile_files([source])]
        outside = [p for path, loc in (*sources, *files) if (p := loaded.check_inside(path, loc))]
        if outside:
            raise InputError(outside)
    missing = [
        loaded.doc.at(["profiles", i]).problem(
            "io", f"{source}: no such file or folder", "check the path; it is relative to the project file"
        )
        for i, source in enumerate(loaded.profile_sources())
        if not source.exists()
    ]
    if missing:
        raise InputError(missing)
    return load_profiles(loaded.profile_sources())
