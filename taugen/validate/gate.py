"""§ validate: build never writes a tree that `taugen validate` would reject."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from taugen.core.errors import FoundProblems, Problem
from taugen.emit.split import Kept
from taugen.load.document import Document
from taugen.validate.built_nodes import BuiltFile, Elsewhere, NodeSummary, clean, shaped
from taugen.validate.engine import validate
from taugen.validate.report import render, summary
from taugen.validate.resources import Resource
from taugen.validate.schemas import SchemaStore

Objects = Mapping[str, list[dict[str, Any]]]  # file -> objects in file order


Apart = Kept[NodeSummary]  # a cluster's node-label files whose objects a forked child kept


def check_tree(
    root: Path,
    clusters: Mapping[str, tuple[Objects, Mapping[str, bytes]]],
    crds: tuple[Path, ...] = (),
    apart: Mapping[str, Apart] | None = None,
) -> list[Problem]:
    """Validate the compiled objects (not yet written); FoundProblems lists every error. The
    warnings about the given CRDs are returned (a CRD of another Kueue release). `apart`: by
    cluster, files whose texts are among the cluster's but whose objects are not (Apart).

    The objects are validated as they are; a position is found in the file's text only for a
    problem (parsing the emitted tree again would double a large build's time)."""
    built_apart = apart or {}
    files = [
        BuiltFile(root / name / rel, docs, texts[rel])  # one path per file (issue 36)
        for name, (objects, texts) in clusters.items()
        for rel, docs in objects.items()
    ]
    elsewhere = [
        Elsewhere(
            tuple(root / name / rel for rel in part.names),
            tuple(clusters[name][1][rel] for rel in part.names),
            part.summary,
        )
        for name, part in built_apart.items()
    ]
    shapes = [shaped(f.objects) for f in files]  # compiled partial Nodes: checked in bulk
    nodes = [f for f, node in zip(files, shapes, strict=True) if node]
    resources = [r for f, node in zip(files, shapes, strict=True) if not node for r in _resources(f)]
    store, roots = SchemaStore(crds=crds), [root / name for name in clusters]
    count = sum(len(objects) for objects, _ in clusters.values())  # files, in the summary line
    count += sum(len(e.paths) for e in elsewhere)
    bulk = clean(nodes, resources, store, roots, elsewhere) if nodes or elsewhere else None
    report = None if bulk is None else validate(resources, store, count, roots=roots)
    if report is None or not report.valid:  # refused: one by one, in file order, as validate reports
        whole = _whole(root, clusters, built_apart) if built_apart else files
        report = validate([r for f in whole for r in _resources(f)], store, count, roots=roots)
    if not report.valid:
        errors = [f for f in report.findings if f.is_error]
        lines = [*(line for f in errors for line in render(f, Path.cwd())), summary(report)]
        raise FoundProblems("the compiled tree does not validate; nothing was written", lines)
    return [f.problem for f in report.sources]


def _whole(
    root: Path, clusters: Mapping[str, tuple[Objects, Mapping[str, bytes]]], apart: Mapping[str, Apart]
) -> list[BuiltFile]:
    """Every file with its objects, those built apart built here, in the order of one process."""
    files = []
    for name, (objects, texts) in clusters.items():
        whole = dict(sorted({**objects, **apart[name].objects()}.items())) if name in apart else objects
        files += [BuiltFile(root / name / rel, docs, texts[rel]) for rel, docs in whole.items()]
    return files


def _resources(file: BuiltFile) -> list[Resource]:
    return [Resource(Document(file.path, obj, text=file.text, index=i)) for i, obj in enumerate(file.objects)]
