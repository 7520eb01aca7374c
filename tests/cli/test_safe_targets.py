"""Files a user names are written only as regular files, never through a link (issue 17 items 4, 7).

`init`, `report --out`, `schema --out` and `inventory import --into` refuse a symbolic link, a
FIFO, a device or a folder where they would write (exit 2, the path named, nothing changed),
and an OS fault (a read-only folder, a full disk) is exit 2 with the error in words.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

import pytest

from taugen.write import safewrite
from taugen.write.safewrite import FAULT_HINT, HINT
from tests.conftest import Run
from tests.support.helpers import gpu_node, inventory, snapshot
from tests.support.unit import write_project

NATIVE = Path(__file__).resolve().parents[1] / "cases" / "views" / "project" / "native" / "inventory.yaml"
LIVE = Path(__file__).resolve().parents[1] / "cases" / "views" / "live" / "import.yaml"


def refusal(path: Path, words: str, hint: str = HINT) -> str:
    return f"{path}: error: {words} [io]\n  hint: {hint}\n"


def _outside(tmp_path: Path) -> Path:
    """A folder outside the target holding one file: a write through a link would land here."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious").write_text("keep me\n")
    return outside


# --- init ---------------------------------------------------------------------------------


def test_init_refuses_a_target_folder_that_is_a_symlink(tmp_path: Path, run: Run) -> None:
    outside = _outside(tmp_path)
    (tmp_path / "config").symlink_to(outside)
    result = run("init", tmp_path / "config")
    assert (result.exit_code, result.output) == (
        2,
        f"error: {tmp_path}/config is a symbolic link: init never writes through one; nothing was written\n",
    )
    assert sorted(p.name for p in outside.iterdir()) == ["precious"]


@pytest.mark.parametrize("link", ["argocd", "schemas", ".github", ".github/workflows"])
def test_init_refuses_a_folder_inside_that_is_a_symlink(tmp_path: Path, run: Run, link: str) -> None:
    outside = _outside(tmp_path)
    target = tmp_path / "config"
    (target / link).parent.mkdir(parents=True)
    (target / link).symlink_to(outside)
    result = run("init", target)
    assert (result.exit_code, result.output) == (
        2,
        f"error: refusing to write through 1 symbolic link(s) in {target}: {link}; nothing was written\n",
    )
    assert sorted(p.name for p in outside.iterdir()) == ["precious"]
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == sorted(
        {link, *(str(p) for p in Path(link).parents if str(p) != ".")}
    )


def test_init_refuses_a_file_it_would_write_that_is_a_dangling_symlink(tmp_path: Path, run: Run) -> None:
    (tmp_path / "taugen.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = run("init", tmp_path)
    assert result.exit_code == 2
    assert f"refusing to overwrite 1 existing file(s) in {tmp_path}: taugen.yaml;" in result.output
    assert not (tmp_path / "elsewhere.yaml").exists()


# --- report --out ---------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "p").mkdir()
    return write_project(tmp_path / "p", inventory([gpu_node("h200-0")]))


def test_report_refuses_a_fifo(tmp_path: Path, run: Run, project: Path) -> None:
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    result = run("report", "-c", project, "--out", fifo)
    assert (result.exit_code, result.output) == (
        2,
        refusal(fifo, "a FIFO, not a regular file: refusing to write it"),
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p", "page.html"]  # no temporary left


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_report_as_root_refuses_a_device_node(tmp_path: Path, run: Run, project: Path) -> None:
    device = tmp_path / "full"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # what /dev/full is
    result = run("report", "-c", project, "--out", device)
    assert (result.exit_code, result.output) == (
        2,
        refusal(device, "a device, not a regular file: refusing to write it"),
    )
    assert stat.S_ISCHR(device.lstat().st_mode)


@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "dangling"])
def test_report_refuses_a_symlink(tmp_path: Path, run: Run, project: Path, dangling: bool) -> None:
    outside = _outside(tmp_path)
    link = tmp_path / "page.html"
    link.symlink_to(outside / ("nowhere" if dangling else "precious"))
    result = run("report", "-c", project, "--out", link)
    assert (result.exit_code, result.output) == (
        2,
        refusal(link, "a symbolic link, not a regular file: refusing to write it"),
    )
    assert link.is_symlink()
    assert sorted(p.name for p in outside.iterdir()) == ["precious"]
    assert (outside / "precious").read_text() == "keep me\n"


def test_report_refuses_a_folder(tmp_path: Path, run: Run, project: Path) -> None:
    (tmp_path / "page.html").mkdir()
    result = run("report", "-c", project, "--out", tmp_path / "page.html")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert list((tmp_path / "page.html").iterdir()) == []


def test_report_replaces_a_regular_file_and_keeps_its_mode(tmp_path: Path, run: Run, project: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("old\n")
    page.chmod(0o640)
    result = run("report", "-c", project, "--out", page)
    assert (result.exit_code, result.output) == (0, f"wrote {page}\n")
    assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert stat.S_IMODE(page.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p", "page.html"]


# --- OS faults: read-only folder, full disk (item 7) ----------------------------------------


@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied")],
)
def test_report_into_an_unwritable_folder_is_exit_2(
    tmp_path: Path, run: Run, project: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    def unwritable(folder: Path, name: str) -> tuple[int, Path]:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(safewrite, "_temp_file", unwritable)
    page = tmp_path / "page.html"
    result = run("report", "-c", project, "--out", page)
    assert (result.exit_code, result.output) == (
        2,
        refusal(page, f"cannot write: {words}", FAULT_HINT),
    )
    assert not page.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_report_into_a_read_only_folder_is_exit_2(tmp_path: Path, run: Run, project: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = run("report", "-c", project, "--out", folder / "page.html")
    finally:
        folder.chmod(0o755)
    assert (result.exit_code, result.output) == (
        2,
        refusal(folder / "page.html", "cannot write: Permission denied", FAULT_HINT),
    )


def test_a_full_disk_is_exit_2_and_leaves_the_old_file(
    tmp_path: Path, run: Run, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file is /dev/full: writing it fails with ENOSPC, as on a full disk."""
    staged = tmp_path / ".page.html.full.taugen-tmp"

    def full(folder: Path, name: str) -> tuple[int, Path]:
        return os.open("/dev/full", os.O_WRONLY), staged

    monkeypatch.setattr(safewrite, "_temp_file", full)
    page = tmp_path / "page.html"
    page.write_text("old\n")
    result = run("report", "-c", project, "--out", page)
    assert (result.exit_code, result.output) == (
        2,
        refusal(page, "cannot write: No space left on device", FAULT_HINT),
    )
    assert page.read_text() == "old\n"


def test_init_on_a_full_disk_writes_nothing(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path] = []
    real = safewrite._temp_file

    def fills_up(folder: Path, name: str) -> tuple[int, Path]:
        calls.append(folder / name)
        if len(calls) == 5:  # four files staged, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(folder, name)

    monkeypatch.setattr(safewrite, "_temp_file", fills_up)
    target = tmp_path / "config"
    result = run("init", target)
    assert result.exit_code == 2
    assert result.output == refusal(calls[-1], "cannot write: No space left on device", FAULT_HINT)
    assert not target.exists()


# --- schema --out -----------------------------------------------------------------------------


def test_schema_out_onto_an_existing_file_is_exit_2(tmp_path: Path, run: Run) -> None:
    (tmp_path / "schemas").write_text("a file\n")
    result = run("schema", "--out", tmp_path / "schemas")
    assert (result.exit_code, result.output) == (
        2,
        refusal(tmp_path / "schemas", "not a folder: refusing to write into it"),
    )
    assert (tmp_path / "schemas").read_text() == "a file\n"


@pytest.mark.parametrize("link", [".", "kueue.x-k8s.io"])
def test_schema_out_refuses_a_symlinked_folder(tmp_path: Path, run: Run, link: str) -> None:
    outside = _outside(tmp_path)
    out = tmp_path / "schemas"
    if link == ".":
        out.symlink_to(outside)
    else:
        out.mkdir()
        (out / link).symlink_to(outside)
    result = run("schema", "--out", out)
    assert (result.exit_code, result.output) == (
        2,
        refusal(out / link if link != "." else out, "a symbolic link: refusing to write into it"),
    )
    assert sorted(p.name for p in outside.iterdir()) == ["precious"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside", "schemas"]
    assert out.is_symlink() or [p.name for p in out.iterdir()] == [link]


def test_schema_out_refuses_a_symlinked_schema_file(tmp_path: Path, run: Run) -> None:
    outside = _outside(tmp_path)
    out = tmp_path / "schemas"
    out.mkdir()
    (out / "project.schema.json").symlink_to(outside / "precious")
    result = run("schema", "--out", out)
    assert (result.exit_code, result.output) == (
        2,
        refusal(out / "project.schema.json", "a symbolic link, not a regular file: refusing to write it"),
    )
    assert (outside / "precious").read_text() == "keep me\n"
    assert [p.name for p in out.iterdir()] == ["project.schema.json"]  # nothing else written


def test_schema_out_writes_every_schema(tmp_path: Path, run: Run) -> None:
    result = run("schema", "--out", tmp_path / "s")
    assert result.exit_code == 0, result.output
    count = len([p for p in (tmp_path / "s").rglob("*.json")])
    assert result.output == f"wrote {count} schemas to {tmp_path}/s\n"
    committed = Path(__file__).resolve().parents[2] / "schemas"
    assert snapshot_bytes(tmp_path / "s") == snapshot_bytes(committed)


def snapshot_bytes(root: Path) -> dict[str, bytes]:
    return {k: v[0] for k, v in snapshot(root).items()}


# --- inventory import --into -----------------------------------------------------------------


def test_inventory_import_refuses_a_symlinked_inventory(tmp_path: Path, run: Run) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    real = Path(shutil.copy(NATIVE, outside / "inventory.yaml"))
    link = tmp_path / "inventory.yaml"
    link.symlink_to(real)
    result = run("inventory", "import", LIVE, "--into", link)
    assert (result.exit_code, result.output) == (
        2,
        refusal(link, "a symbolic link, not a regular file: refusing to write it"),
    )
    assert link.is_symlink()
    assert real.read_bytes() == NATIVE.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inventory.yaml", "outside"]


@pytest.mark.parametrize("command", ["schema", "init"])
def test_schema_and_init_on_a_read_only_file_system_are_exit_2(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def read_only(folder: Path, name: str) -> tuple[int, Path]:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(safewrite, "_temp_file", read_only)
    (tmp_path / "t").mkdir()
    args = ["schema", "--out", tmp_path / "t"] if command == "schema" else ["init", tmp_path / "t"]
    result = run(*args)
    first = "project.schema.json" if command == "schema" else "taugen.yaml"
    assert (result.exit_code, result.output) == (
        2,
        refusal(tmp_path / "t" / first, "cannot write: Read-only file system", FAULT_HINT),
    )
    assert list((tmp_path / "t").iterdir()) == []
