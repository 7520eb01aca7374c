"""`taugen inventory import NODELIST --into INVENTORY`: refresh an inventory from the cluster.

A ClusterInventory is edited in place (edit.py): comments, key order and hand-written
fields stay. An inventory that is itself kubectl output (NodeList form) holds nothing
written by hand, so it is replaced by NODELIST as it is. Either way the file is written
atomically (a temporary file beside it, validated, then renamed) and only when it changes,
and never through a symbolic link or onto anything but a regular file (taugen.write.safewrite).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from taugen.commands.inventory.changes import FleetChanges, fleet_changes
from taugen.commands.inventory.edit import refreshed_text
from taugen.context.session import open_project
from taugen.core.errors import InputError
from taugen.core.timestamps import utc_text
from taugen.load.document import read_text
from taugen.load.inventory import GPU, NATIVE, Form, Inventory, load_inventory
from taugen.resolve.gpus import MACHINE, PRODUCT
from taugen.write.safewrite import refuse_unsafe, write_file


@dataclass(frozen=True)
class ImportResult:
    target: Path
    form: Form  # the target's: ClusterInventory (edited) or NodeList (replaced)
    observed_at: tuple[str, str]  # before, after
    changes: FleetChanges
    changed_file: bool  # the new text differs from the file
    written: bool  # False on --dry-run or when nothing changed


def import_nodes(source: Path, target: Path, dry_run: bool) -> ImportResult:
    if not dry_run:
        refuse_unsafe(target)  # before reading it: a link is never followed
    live = _live(source)
    current = load_inventory(target, allow_empty=True)  # R36: an empty inventory is filled
    if current.form == NATIVE:
        _describable(live)
    text = read_text(target)
    new_text = refreshed_text(text, live) if current.form == NATIVE else read_text(source)
    changed = new_text != text
    if changed and not dry_run:
        _write_atomically(target, new_text)
    return ImportResult(
        target,
        current.form,
        (utc_text(current.observed_at), utc_text(live.observed_at)),
        fleet_changes(current, live),
        changed,
        changed and not dry_run,
    )


def _live(source: Path) -> Inventory:
    live = load_inventory(source)
    if live.form == NATIVE:
        raise InputError(
            [
                live.doc.at(["kind"]).problem(
                    "inventory",
                    "NODELIST is a ClusterInventory; import reads the cluster's own node list",
                    "export it with `kubectl get nodes -o yaml > nodes.yaml`",
                )
            ]
        )
    return live


def _describable(live: Inventory) -> None:
    """R36: a GPU node with no vmSize is described by its hardware labels, or not written at all."""
    problems = [
        node.at("name").problem(
            "R36",
            f"node {node.name} has {node.gpus} {GPU} but neither an instance-type label nor "
            f"{PRODUCT} or {MACHINE}: no rule could give it a gpu-class",
            f"install NVIDIA GPU feature discovery (it labels {PRODUCT}), or label the node "
            "node.kubernetes.io/instance-type, then export it again",
        )
        for node in live.nodes
        if node.gpus > 0 and node.vm_size is None and not {PRODUCT, MACHINE} & set(node.labels)
    ]
    if problems:
        raise InputError(problems)


def _write_atomically(target: Path, text: str) -> None:
    """Validated before the rename: a refresh that would not load is never written (exit 2)."""
    write_file(target, text.encode("utf-8"), lambda temporary: _loads(temporary, target))


def _loads(temporary: Path, target: Path) -> None:
    try:
        load_inventory(temporary)
    except InputError as err:
        raise InputError([replace(p, path=target) for p in err.problems]) from None


def project_inventory(config: Path, cluster: str | None) -> Path:
    """The inventory file the project names for the cluster (the default of --into)."""
    project = open_project(config)
    return project.loaded.root / project.pick(cluster).inventory
