"""Issue 17 item 9: network domains that differ only in case get file names that differ in case
folding too (macOS and Windows would check IB-A.yaml and ib-a.yaml out as one file)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from taugen.compile.nodelabels.base import file_name
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

FABRIC = "net.unbounded-cloud.io/network-domain"
UPPER = f"ib-a-{hashlib.sha256(b'IB-A').hexdigest()[:8]}"


@pytest.mark.parametrize("node_labels", ["node", "nfd"])
def test_domains_that_differ_in_case_get_distinct_files(tmp_path: Path, node_labels: str) -> None:
    nodes = [gpu_node("h-0", labels={FABRIC: "IB-A"}), gpu_node("h-1", labels={FABRIC: "ib-a"})]
    project = write_project(tmp_path, inventory(nodes), nodeLabels=node_labels)
    run_build(project)
    folder = tmp_path / "out" / "c1" / "nodes"
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(["h200-141gb.ib-a", f"h200-141gb.{UPPER}"])
    assert len({f.casefold() for f in files}) == len(files)
    lower, upper = folder / "h200-141gb.ib-a" / "nodes.yaml", folder / f"h200-141gb.{UPPER}" / "nodes.yaml"
    assert "h-1" in _names(lower) and "h-0" not in _names(lower)
    assert "h-0" in _names(upper) and "h-1" not in _names(upper)


def _names(path: Path) -> str:
    """The file's objects as text, in which each node name appears where the node is labelled."""
    return yaml.safe_dump([d for d in yaml.safe_load_all(path.read_text()) if d])


def test_a_lower_case_domain_keeps_its_name_and_others_are_stable() -> None:
    assert file_name("ib-fabric-1") == "ib-fabric-1"
    assert file_name("IB-A") == UPPER
    assert file_name("Ib-A") != file_name("IB-A")
