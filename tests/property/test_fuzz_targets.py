"""Adversarial targets for the commands that write a path the user names (issue 17 items 4, 7).

A pull request controls the checkout, so anything may already sit where `init`, `report --out`,
`schema --out` or `inventory import --into` writes: a symbolic link (to a file, to a folder,
dangling), a FIFO, a folder, a file. For any such entry at any path the command writes (the
target, a folder on the way, a file): never a traceback (exit 3); nothing outside the
sandbox's target folder changes; the entry itself is left as it was unless it is a regular
file a command may replace (init never does); a refusal is exit 2 and names the entry.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from taugen.cli import main
from taugen.commands.init.files import Context, scaffold_files
from tests.support.helpers import gpu_node, inventory, write_project

CASES = Path(__file__).resolve().parents[1] / "cases" / "views"
NATIVE = CASES / "project" / "native" / "inventory.yaml"
LIVE = CASES / "live" / "import.yaml"
HAZARDS = ("link-to-file", "link-to-folder", "dangling-link", "fifo", "folder", "file")
# Each example is one command in a fresh folder (~0.1 s): CI's quick profile draws 100.
EXAMPLES = settings() if os.environ.get("HYPOTHESIS_PROFILE") == "long" else settings(max_examples=100)
INIT_FILES = list(scaffold_files(Context("my-cluster", "https://git.example.com/x.git")))


@dataclass(frozen=True)
class Command:
    """argv in a sandbox; where it writes: (path relative to the sandbox, a folder?)."""

    argv: Callable[[Path], list[str | Path]]
    locations: tuple[tuple[str, bool], ...]
    replaces_files: bool  # a regular file at a file location is replaced (init refuses instead)


def _init_locations() -> tuple[tuple[str, bool], ...]:
    folders = {f"t/{p.as_posix()}" for rel in INIT_FILES for p in Path(rel).parents if p != Path()}
    return (("t", True), *((f, True) for f in sorted(folders)), *((f"t/{rel}", False) for rel in INIT_FILES))


COMMANDS = {
    "init": Command(lambda box: ["init", box / "t"], _init_locations(), replaces_files=False),
    "report": Command(
        lambda box: ["report", "-c", box / "p" / "taugen.yaml", "--out", box / "t" / "page.html"],
        (("t/page.html", False),),
        replaces_files=True,
    ),
    "schema": Command(
        lambda box: ["schema", "--out", box / "t" / "s"],
        (
            ("t/s", True),
            ("t/s/kueue.x-k8s.io", True),
            ("t/s/project.schema.json", False),
            ("t/s/kueue.x-k8s.io/clusterqueue_v1beta2.json", False),
        ),
        replaces_files=True,
    ),
    "import": Command(
        lambda box: ["inventory", "import", LIVE, "--into", box / "t" / "inventory.yaml"],
        (("t/inventory.yaml", False),),
        replaces_files=True,
    ),
}


def _place(path: Path, hazard: str, outside: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if hazard == "link-to-file":
        path.symlink_to(outside / "inventory.yaml")
    elif hazard == "link-to-folder":
        path.symlink_to(outside)
    elif hazard == "dangling-link":
        path.symlink_to(outside / "nowhere")
    elif hazard == "fifo":
        os.mkfifo(path)
    elif hazard == "folder":
        path.mkdir()
    else:
        shutil.copy(NATIVE, path)  # a file (an inventory, so import can read it)


def _state(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every entry under root: its type and its bytes (a file) or target (a link)."""
    found: dict[str, tuple[int, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        mode = path.lstat().st_mode
        content: bytes | str = (
            str(path.readlink()) if stat.S_ISLNK(mode) else path.read_bytes() if stat.S_ISREG(mode) else b""
        )
        found[path.relative_to(root).as_posix()] = (stat.S_IFMT(mode), content)
    return found


def _expected_exit(command: Command, folder: bool, hazard: str) -> int:
    if folder:
        return 0 if hazard == "folder" else 2
    return 0 if hazard == "file" and command.replaces_files else 2


@EXAMPLES
@given(
    name=st.sampled_from(sorted(COMMANDS)),
    hazard=st.sampled_from(HAZARDS),
    data=st.data(),
)
def test_a_hazard_where_a_command_writes_is_refused_or_harmless(
    name: str, hazard: str, data: st.DataObject
) -> None:
    command = COMMANDS[name]
    rel, folder = data.draw(st.sampled_from(command.locations), label="location")
    with tempfile.TemporaryDirectory() as tmp:
        box = Path(tmp)
        (box / "outside").mkdir()
        shutil.copy(NATIVE, box / "outside" / "inventory.yaml")
        (box / "p").mkdir()
        write_project(box / "p", inventory([gpu_node("h200-0")]))
        _place(box / rel, hazard, box / "outside")
        before, entry = _state(box / "outside"), (box / rel).lstat()

        result = CliRunner().invoke(main, [str(a) for a in command.argv(box)], catch_exceptions=False)

        assert "Traceback" not in result.output and result.exit_code != 3, result.output
        assert result.exit_code == _expected_exit(command, folder, hazard), (rel, hazard, result.output)
        assert _state(box / "outside") == before, "a write went through a link"
        after = (box / rel).lstat()
        if result.exit_code == 2:
            assert (after.st_mode, after.st_ino) == (entry.st_mode, entry.st_ino), "a refused entry changed"
            named = str(box / rel) if rel == "t" else rel.removeprefix("t/")
            assert named in result.output or str(box / rel) in result.output, result.output
        else:
            assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(entry.st_mode)
