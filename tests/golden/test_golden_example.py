"""The committed example output (out/ and taugen.lock) is exactly what a build of taugen.yaml writes.

The example is copied into tmp_path and built there: a golden test never compiles in place
into the committed tree (STYLE.md). Regenerate the committed files with `taugen build` at the
repository root.
"""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from taugen.commands.build import BuildOptions, build

REPO = Path(__file__).resolve().parents[2]
COMMITTED_OUT = REPO / "out"
COMMITTED_LOCK = REPO / "taugen.lock"
REGENERATE = "regenerate with `taugen build` at the repository root"


def files_under(root: Path) -> dict[str, bytes]:
    """Every file (hidden ones too) below root, by path relative to root."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def committed() -> dict[str, bytes]:
    files = {f"out/{rel}": content for rel, content in files_under(COMMITTED_OUT).items()}
    if COMMITTED_LOCK.is_file():
        files["taugen.lock"] = COMMITTED_LOCK.read_bytes()
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """out/ and the lock as a fresh build of the example project writes them."""
    root = tmp_path_factory.mktemp("example")
    shutil.copyfile(REPO / "taugen.yaml", root / "taugen.yaml")
    shutil.copytree(REPO / "examples", root / "examples")
    build(BuildOptions(project_file=root / "taugen.yaml"))
    files = {f"out/{rel}": content for rel, content in files_under(root / "out").items()}
    files["taugen.lock"] = (root / "taugen.lock").read_bytes()
    return files


def test_build_writes_every_cluster_of_the_example(built: dict[str, bytes]) -> None:
    clusters = [c["name"] for c in yaml.safe_load((REPO / "taugen.yaml").read_text())["clusters"]]
    assert clusters
    for name in clusters:
        assert f"out/{name}/kustomization.yaml" in built
        # the queue file of its backend: Kueue's ClusterQueue, or KAI's Queues (SPEC §8)
        assert {f"out/{name}/clusterqueue.yaml", f"out/{name}/queues.yaml"} & set(built)


def test_every_built_file_is_committed(built: dict[str, bytes]) -> None:
    missing = sorted(set(built) - set(committed()))
    assert not missing, f"a build writes {', '.join(missing)}, not committed: {REGENERATE}"


def test_committed_out_holds_no_file_a_build_would_not_write(built: dict[str, bytes]) -> None:
    extra = sorted(set(committed()) - set(built))
    assert not extra, f"committed {', '.join(extra)} that a build does not write: {REGENERATE}"


def test_committed_files_equal_the_build(built: dict[str, bytes]) -> None:
    current = committed()
    assert current, f"nothing committed under {COMMITTED_OUT}"
    differing = [
        rel for rel in sorted(set(built) & set(current)) if _key(rel, current[rel]) != _key(rel, built[rel])
    ]
    assert not differing, f"{', '.join(differing)} differ from what a build writes: {REGENERATE}\n" + _diff(
        differing[0], current[differing[0]], built[differing[0]]
    )


def _key(rel: str, content: bytes) -> object:
    # The lock's sourcesDigest covers taugen's own code: any change to taugen changes it.
    if rel != "taugen.lock":
        return content
    lock = json.loads(content)
    for entry in lock["clusters"].values():
        entry.pop("sourcesDigest", None)
    return lock


def _diff(rel: str, old: bytes, new: bytes, limit: int = 40) -> str:
    lines = difflib.unified_diff(
        old.decode(errors="replace").splitlines(),
        new.decode(errors="replace").splitlines(),
        f"committed {rel}",
        f"built {rel}",
        lineterm="",
    )
    return "\n".join(list(lines)[:limit])
