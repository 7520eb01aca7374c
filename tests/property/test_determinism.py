"""§4: same inputs, whatever their order, give byte-identical files; a second build rewrites nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import Fleet, build_project, fleets, output_files, reorderings, write_fleet
from tests.support.helpers import lock_semantics, snapshot

REPO = Path(__file__).resolve().parents[2]
OLD_NS = 1_000_000_000 * 1_000_000_000  # 2001-09-09: any rewrite would move a file's mtime past it


def built(fleet: Fleet) -> dict[str, bytes]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build_project(write_fleet(root, fleet))
        return output_files(root)


def assert_same_output(fleet: Fleet, other: Fleet) -> None:
    expected, actual = _semantic(built(fleet)), _semantic(built(other))
    assert sorted(actual) == sorted(expected)
    differing = [name for name in sorted(expected) if actual[name] != expected[name]]
    assert not differing, f"reordered inputs changed {', '.join(differing)}"


def _semantic(files: dict[str, bytes]) -> dict[str, bytes]:
    lock = lock_semantics(files["taugen.lock"])
    return files | {"taugen.lock": json.dumps(lock, sort_keys=True).encode()}


@given(st.data(), fleets())
def test_node_order_and_node_key_order_do_not_change_output(data: st.DataObject, fleet: Fleet) -> None:
    assert_same_output(fleet, data.draw(reorderings(fleet, nodes=True)))


@given(st.data(), fleets())
def test_tenant_order_does_not_change_output(data: st.DataObject, fleet: Fleet) -> None:
    assert_same_output(fleet, data.draw(reorderings(fleet, tenants=True)))


@given(st.data(), fleets())
def test_order_of_commuting_rules_does_not_change_output(data: st.DataObject, fleet: Fleet) -> None:
    assert_same_output(fleet, data.draw(reorderings(fleet, rule_order=True)))


def _age(root: Path) -> None:
    """Date every output file back, so a rewrite shows even within one mtime tick."""
    for path in [*(root / "out").rglob("*"), root / "taugen.lock"]:
        if path.is_file():
            os.utime(path, ns=(OLD_NS, OLD_NS))


@given(fleets())
def test_second_build_rewrites_nothing(fleet: Fleet) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        project = write_fleet(root, fleet)
        first = build_project(project)
        assert "c1" in first.written and "taugen.lock" in first.written
        _age(root)
        before = snapshot(root)
        folder_inode = (root / "out" / "c1").stat().st_ino
        second = build_project(project)
        assert second.written == ()
        after = snapshot(root)
        changed = [name for name in sorted(before) if after.get(name) != before[name]]
        assert not changed, f"the second build touched {', '.join(changed)}"
        assert sorted(after) == sorted(before)
        assert (root / "out" / "c1").stat().st_ino == folder_inode  # the folder was not swapped
        assert build_project(project, check=True).differences == ()


def test_output_does_not_depend_on_hash_seed_or_locale(tmp_path: Path) -> None:
    """§4: byte-identical on any Python hash seed and any locale (set and dict order, sorting)."""
    trees = []
    for seed, locale in (("1", "C"), ("4242", "C.UTF-8")):
        root = tmp_path / f"seed-{seed}"
        shutil.copytree(REPO / "examples", root / "examples")
        shutil.copyfile(REPO / "taugen.yaml", root / "taugen.yaml")
        env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": locale, "LANG": locale}
        done = subprocess.run(
            [sys.executable, "-m", "taugen", "build", "-c", str(root / "taugen.yaml")],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        trees.append(output_files(root))
    assert trees[0] == trees[1]
