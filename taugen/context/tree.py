"""The one reader of a compiled tree, out/<cluster>/: every backend's objects (issue 18).

drift, simulate (its own tree, --tree, each side of `diff --simulate`), preflight, render and
`profiles` read a tree through this class: a folder on disk (`read`, each file read when first
asked for), or the files of a Git revision or a diff side (`of`, context/committed.py). Each
file is parsed once, by load/compiled.py's YAML 1.2 reader, into Documents that find their
positions when a problem asks, so a committed file that does not validate is reported at its
line. Missing files mean the cluster is not built (exit 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TypeVar

from pydantic import BaseModel

from taugen.api.kai.models import Queue
from taugen.api.kueue.clusterqueue import ClusterQueue
from taugen.api.kueue.cohort import Cohort
from taugen.api.kueue.flavor import ResourceFlavor
from taugen.api.kueue.queues import LocalQueue
from taugen.compile.nodelabels.base import NODES_DIR
from taugen.compile.slot import SLOT_FILE, advertises_slot
from taugen.context.catalog import Catalog, read_catalog
from taugen.context.committed import TreeFiles
from taugen.context.kueue_tree import KueueTree, kueue_tree
from taugen.context.node_labels import NodeLabels, node_labels
from taugen.core.errors import InputError, Problem, Rule
from taugen.load.compiled import tree_bytes, tree_file
from taugen.load.document import Document
from taugen.load.validate import validate
from taugen.schedulers.registry import scheduler_of

RULE: Rule = "tree"
REBUILD = "run `taugen build`: it writes the cluster's tree"
M = TypeVar("M", bound=BaseModel)


class CompiledTree:
    def __init__(self, folder: Path, files: Mapping[str, bytes] | None = None) -> None:
        self.folder = folder
        self._given = files  # by POSIX path under `folder`; None: the folder on disk
        self._files: dict[Path, list[Document]] = {}

    @classmethod
    def read(cls, folder: Path) -> CompiledTree:
        """The tree in `folder`; files are read when first asked for."""
        return cls(folder)

    @classmethod
    def of(cls, tree: TreeFiles) -> CompiledTree:
        """The tree of a Git revision's or a diff side's files, named by its label."""
        return cls(Path(tree.label), tree.files)

    def documents(self, path: Path) -> list[Document]:
        """The non-empty documents of one file of the tree, parsed once."""
        if path not in self._files:
            given = self._given
            found = tree_file(path) if given is None else tree_bytes(path, given[self._key(path)])
            self._files[path] = found
        return self._files[path]

    def is_file(self, path: Path) -> bool:
        return path.is_file() if self._given is None else self._key(path) in self._given

    def files(self, folder: str | None = None) -> list[Path]:
        """The tree's YAML files: its top level's, or all under `folder` (kustomizations aside)."""
        if self._given is None:
            base = self.folder if folder is None else self.folder / folder
            found = base.glob("*.yaml") if folder is None else base.rglob("*.yaml") if base.is_dir() else []
            return sorted(p for p in found if p.name != "kustomization.yaml")
        prefix = "" if folder is None else f"{folder}/"
        names = (k for k in self._given if k.startswith(prefix) and k.endswith(".yaml"))
        inside = (k for k in names if folder is not None or "/" not in k)
        return sorted(self.folder / k for k in inside if PurePosixPath(k).name != "kustomization.yaml")

    def _key(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    def objects(self, name: str, kind: str, model: type[M]) -> list[M]:
        """Every `kind` object of the file `name`, validated as `model` (rule `tree`)."""
        path = self.folder / name
        if not self.is_file(path):
            raise InputError([Problem(path, 0, 0, RULE, "not found: the cluster is not built", REBUILD)])
        docs = [d for d in self.documents(path) if isinstance(d.data, dict) and d.data.get("kind") == kind]
        return [validate(model, d, RULE) for d in docs]

    def every(self, kind: str, model: type[M]) -> list[M]:
        """Every `kind` object of the tree's top-level files (node manifests aside), whichever
        file holds it: a Cohort and the tenants' ClusterQueues (T1-T3) need no file of their own."""
        files = [p.name for p in self.files()]
        return [
            obj
            for name in files
            if any(
                isinstance(d.data, dict) and d.data.get("kind") == kind
                for d in self.documents(self.folder / name)
            )
            for obj in self.objects(name, kind, model)
        ]

    def node_labels(self) -> NodeLabels | None:
        """Node name -> the labels the tree gives it (R29), from partial Nodes or nfd's
        NodeFeatureRules; None when the tree holds no node manifests."""
        files = self.files(NODES_DIR)
        if not files:
            return None
        return node_labels(d.data for path in files for d in self.documents(path))

    def advertises_slot(self) -> bool:
        """G4: whether the tree holds the NodeFeatureRule that puts one torchrun-host-slot on
        every NVIDIA GPU node (a tree built before it, or edited, may not): only then does a
        GPU node offer the slot every multi-node torchrun rank requests."""
        path = self.folder / SLOT_FILE
        return self.is_file(path) and advertises_slot([d.data for d in self.documents(path)])

    def kueue(self, queue: str) -> KueueTree:
        """The ResourceFlavors, the ClusterQueue `queue`, and every ClusterQueue, Cohort and
        LocalQueue of a Kueue tree."""
        files = scheduler_of("kueue").files
        flavors = self.objects(files.flavors, "ResourceFlavor", ResourceFlavor)
        self.objects(files.queues, "ClusterQueue", ClusterQueue)  # R32: the queue file must exist
        queues = self.every("ClusterQueue", ClusterQueue)
        found = [q for q in queues if q.metadata.name == queue]
        if not found:
            path = self.folder / files.queues
            raise InputError([Problem(path, 0, 0, RULE, f"no ClusterQueue {queue} in the tree", REBUILD)])
        cohorts = self.every("Cohort", Cohort)
        return kueue_tree(flavors, found[0], queues, cohorts, self.every("LocalQueue", LocalQueue))

    def kai_queues(self) -> dict[str, Queue]:
        """A KAI tree's Queues by name (SPEC §8)."""
        queues = self.objects(scheduler_of("kai").files.queues, "Queue", Queue)
        return {q.metadata.name or "": q for q in queues}

    def catalog(self) -> Catalog:
        """The committed profile catalog (R30); R32 when the cluster is not built."""
        return read_catalog(self.folder, self.documents, self.is_file)
