"""Issue 31 item 6: `taugen validate --server` on the real kube-apiserver: the example's core tree
passes a server-side dry run, a refused object is a finding at the field the server names, and
nothing is ever written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from taugen.cli import main
from tests.cli.test_validate_cases import parse_text
from tests.conftest import REPO
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.kube import Kube

pytestmark = pytest.mark.realcluster
CORE = REPO / "out" / "eastus-prod"
NOTE = re.compile(r"^server: (\d+) objects sent as a dry run \(dryRun=All\) to .+: (\d+) refused$", re.M)


def _core(tmp_path: Path) -> Path:
    """The cluster's core files (no node shards: a partial Node is another test's, G3)."""
    tree = tmp_path / "core"
    tree.mkdir()
    for path in sorted(CORE.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            shutil.copy(path, tree / path.name)
    return tree


def _namespaces(kube: Kube, tree: Path) -> None:
    """The tenant namespaces the LocalQueues live in exist first (docs/gitops.md)."""
    names = {
        d["metadata"]["namespace"]
        for p in tree.glob("*.yaml")
        for d in yaml.safe_load_all(p.read_text())
        if d and d["metadata"].get("namespace")
    }
    for name in sorted(names):
        namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
        if kube.get(namespace) is None:
            Kube.expect(kube.create(namespace))


def _validate(plane: ControlPlane, tree: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main,
        ["validate", str(tree), "--server", "--kubeconfig", str(plane.kubeconfig)],
        catch_exceptions=False,
    )
    return result.exit_code, result.stdout, result.stderr


def test_the_example_core_passes_a_dry_run_and_nothing_is_written(
    control_plane: ControlPlane, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _core(tmp_path)
    _namespaces(control_plane.kube, tree)
    monkeypatch.chdir(tmp_path)
    code, out, err = _validate(control_plane, tree)
    assert code == 0, out + err
    printed = parse_text(out)
    ((sent, refused),) = NOTE.findall(err)
    assert (int(sent), int(refused)) == (printed.summary["resources"], 0)
    objects = [d for p in sorted(tree.glob("*.yaml")) for d in yaml.safe_load_all(p.read_text()) if d]
    assert len(objects) == printed.summary["resources"] > 15
    assert [o["metadata"]["name"] for o in objects if control_plane.kube.get(o) is not None] == []


def _refused(
    plane: ControlPlane, folder: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[tuple[tuple[str, int, int], str]], str]:
    """validate --server on `files` written into `folder`: the exit code, each `server` finding's
    (file, line, col) and message, and stderr."""
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    monkeypatch.chdir(folder.parent)
    code, out, err = _validate(plane, folder)
    printed = parse_text(out)
    found = [
        ((f[0], f[1], f[2]), m)
        for f, m in zip(printed.findings, printed.messages, strict=True)
        if f[3] == "server"
    ]
    return code, found, err


FLAVOR = (
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: realcluster-bad\n"
    "spec:\n  nodeTaints:\n    - key: sku\n      value: gpu\n      effect: NoScheduleNever\n"
)
QUEUE = (
    "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: q\n"
    "  namespace: realcluster-no-such-namespace\nspec:\n  clusterQueue: taugrid\n"
)


def test_a_refusal_is_a_finding_at_the_field_the_server_names(
    control_plane: ControlPlane, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"flavor.yaml": FLAVOR, "queue.yaml": QUEUE}
    code, server, err = _refused(control_plane, tmp_path / "bad", files, monkeypatch)
    assert code == 1
    # the CRD's rule sits on the list: the server names spec.nodeTaints, the list's first item
    assert [where for where, _ in server] == [("bad/flavor.yaml", 7, 5), ("bad/queue.yaml", 1, 1)]
    assert server[0][1].startswith("spec.nodeTaints: ") and "supported taint effect values" in server[0][1]
    assert server[1][1] == 'namespaces "realcluster-no-such-namespace" not found'
    assert NOTE.findall(err) == [("2", "2")]
    assert control_plane.kube.get(yaml.safe_load(FLAVOR)) is None


def test_an_unknown_field_is_refused_not_pruned(
    control_plane: ControlPlane, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server-side apply refuses a field its schema lacks (a plain create would drop it in silence)."""
    priority = (
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata:\n  name: realcluster-x\n"
        "value: 5\ncolour: blue\n"
    )
    code, server, _ = _refused(control_plane, tmp_path / "extra", {"priority.yaml": priority}, monkeypatch)
    assert code == 1 and len(server) == 1 and ".colour: field not declared in schema" in server[0][1]
