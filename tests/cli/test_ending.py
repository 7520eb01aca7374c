"""Issue 36: a `taugen` process ends through `os._exit`, holding what its command built rather
than freeing it object by object (cli/ending.py). The exit code and every byte of output are
the same as click's own end gives; only a run through `ending.run` holds anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import click
import pytest
from click.testing import CliRunner

from taugen import __version__
from taugen.cli import ending, main
from taugen.cli.held import Held, keep
from taugen.commands.build import BuildOptions, build
from taugen.context.session import ProjectContext
from taugen.validate.engine import Report
from tests.support.helpers import gpu_node, inventory, write_project, write_yaml

# streams buffered as a user's are (this machine sets PYTHONUNBUFFERED, which would hide a lost flush)
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(command, cwd=cwd, capture_output=True, check=False, env=BUFFERED)


def _taugen(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return _run([sys.executable, "-m", "taugen", *args], cwd)


def test_a_process_prints_every_byte_click_prints_and_exits_with_its_code(tmp_path: Path) -> None:
    # a schema is tens of KiB: more than stdout's buffer, so its last part is what the end flushes
    in_process = CliRunner().invoke(main, ["schema", "project"])
    assert in_process.exit_code == 0 and len(in_process.stdout_bytes) > 3 * 8192
    done = _taugen("schema", "project", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, in_process.stdout_bytes, b"")
    version = _taugen("--version", cwd=tmp_path)
    assert (version.returncode, version.stdout) == (0, f"taugen, version {__version__}\n".encode())


def test_what_is_still_buffered_is_flushed_before_the_end(tmp_path: Path) -> None:
    # click.echo flushes as it writes; a write that does not is flushed by the end itself
    probe = (
        "import sys\n"
        "from taugen.cli import ending\n"
        "def unflushed(prog_name, obj):\n"
        "    sys.stdout.write('out' * 1000)\n"
        "    sys.stderr.write('err')\n"
        "    raise SystemExit(3)\n"
        "ending.main = unflushed\n"
        "ending.run()\n"
    )
    done = _run([sys.executable, "-c", probe], tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (3, b"out" * 1000, b"err")


def test_a_reader_gone_before_the_last_flush_ends_it_as_the_interpreter_would(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from taugen.cli import ending\n"
        "def unflushed(prog_name, obj):\n"
        "    sys.stdout.write('out')\n"
        "    raise SystemExit(0)\n"
        "ending.main = unflushed\n"
        "ending.run()\n"
    )
    read, write = os.pipe()
    os.close(read)  # `taugen … | head -1` after head has gone
    with os.fdopen(write, "wb") as gone:
        done = subprocess.run(
            [sys.executable, "-c", probe], cwd=tmp_path, stdout=gone, stderr=subprocess.PIPE, env=BUFFERED
        )
    assert (done.returncode, done.stderr) == (ending.BROKEN_PIPE, b"")


def test_a_failing_command_ends_with_its_exit_code_and_its_whole_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "taugen.yaml").write_text("clusters: [\n")
    monkeypatch.chdir(tmp_path)
    in_process = CliRunner().invoke(main, ["build"])
    assert in_process.exit_code == 2  # SPEC §6: an input error
    assert in_process.stderr.startswith("taugen.yaml:1:12: error: expected the node content")
    done = _taugen("build", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, b"", in_process.stderr_bytes)
    usage = _taugen("no-such-command", cwd=tmp_path)
    assert usage.returncode == 2 and b"No such command 'no-such-command'." in usage.stderr


def test_check_ends_with_exit_1_when_the_tree_is_stale(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    assert _taugen("build", "-c", str(project), cwd=tmp_path).returncode == 0
    write_yaml(tmp_path / "inventory.yaml", inventory([gpu_node("h200-0"), gpu_node("h200-9")]))
    done = _taugen("build", "-c", str(project), "--check", cwd=tmp_path)
    assert done.returncode == 1
    assert b"out of date: run `taugen build`" in done.stderr
    assert b"Node/h200-9 missing" in done.stdout


def test_keep_holds_only_under_a_context_that_carries_held() -> None:
    built = object()
    keep()(built)  # no context at all: nothing to hold it in, and no error
    held = Held()
    with click.Context(click.Command("x"), obj=held):
        keep()(built)
    with click.Context(click.Command("x"), obj="another caller's object"):
        keep()(built)
    assert held.objects == [built]


def test_build_hands_over_what_it_opened_and_check_its_compiled_tree(tmp_path: Path) -> None:
    project = write_project(tmp_path)
    kept: list[object] = []
    build(BuildOptions(project, keep=kept.append))
    assert [type(k) for k in kept] == [ProjectContext]
    assert isinstance(kept[0], ProjectContext) and kept[0].loaded.doc.path == project.resolve()
    kept.clear()
    assert build(BuildOptions(project, check=True, keep=kept.append)).differences == ()
    context, compiled = kept
    assert isinstance(context, ProjectContext) and isinstance(compiled, dict) and list(compiled) == ["c1"]


class _Ended(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def test_run_holds_what_the_build_opened_until_the_process_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Held] = []

    class Recorded(Held):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    def ended(code: int) -> NoReturn:
        raise _Ended(code)

    project = write_project(tmp_path)
    monkeypatch.setattr(ending, "Held", Recorded)
    monkeypatch.setattr(os, "_exit", ended)
    monkeypatch.setattr(sys, "argv", ["taugen", "build", "-c", str(project)])
    with pytest.raises(_Ended) as end:
        ending.run()
    assert end.value.code == 0
    (held,) = made
    assert [type(k) for k in held.objects] == [ProjectContext]
    monkeypatch.setattr(sys, "argv", ["taugen", "build", "-c", str(tmp_path / "missing.yaml")])
    with pytest.raises(_Ended) as end:
        ending.run()
    assert end.value.code == 2


def test_run_holds_validates_report_until_the_process_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Held] = []

    class Recorded(Held):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    def ended(code: int) -> NoReturn:
        raise _Ended(code)

    project = write_project(tmp_path)
    assert build(BuildOptions(project)).differences == ()
    monkeypatch.setattr(ending, "Held", Recorded)
    monkeypatch.setattr(os, "_exit", ended)
    monkeypatch.setattr(sys, "argv", ["taugen", "validate", "-c", str(project)])
    with pytest.raises(_Ended) as end:
        ending.run()
    assert end.value.code == 0
    (held,) = made
    assert [type(k) for k in held.objects] == [Report]
