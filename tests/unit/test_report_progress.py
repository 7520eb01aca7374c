"""Progress of long commands (issue 12): silent for the first second, one rewritten line on a
terminal, one line per stage in a log; the core only names its stages."""

from __future__ import annotations

from pathlib import Path

from taugen.cli.progress import ProgressLine
from taugen.commands.report.command import ReportOptions, report_html
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import run_build, write_project

CLEAR = "\r\033[K"


def test_terminal_shows_the_latest_stage_once_awake_and_clears_it() -> None:
    written: list[str] = []
    line = ProgressLine(written.append, terminal=True)
    line("loading")
    line("resolving")
    assert written == []  # within the first second nothing is shown
    line.wake()
    line("writing")
    line.close()
    assert written == [f"{CLEAR}taugen: resolving …", f"{CLEAR}taugen: writing …", CLEAR]


def test_a_log_gets_one_line_per_stage_and_nothing_to_clear() -> None:
    written: list[str] = []
    line = ProgressLine(written.append, terminal=False)
    line.wake()
    line("loading")
    line("writing")
    line.close()
    line("after close")  # a stage reported after close is not shown
    assert written == ["taugen: loading\n", "taugen: writing\n"]


def test_a_command_that_ends_before_waking_shows_nothing() -> None:
    written: list[str] = []
    line = ProgressLine(written.append, terminal=True)
    line("loading")
    line.close()
    line.wake()  # a timer that fires late
    assert written == []


def test_build_and_report_name_their_stages(tmp_path: Path) -> None:
    project = write_project(tmp_path, inventory([gpu_node("h200-0")]))
    stages: list[str] = []
    run_build(project, progress=stages.append)
    report_html(ReportOptions(project, out=tmp_path / "r.html", cwd=tmp_path, progress=stages.append))
    assert stages == [
        "loading cluster c1",
        "resolving and compiling cluster c1",
        "validating the compiled tree",
        f"writing {tmp_path / 'out'}",
        f"loading {project}",
        "loading cluster c1",
        "resolving cluster c1",
        "writing the page",
    ]
