"""Golden renders (§7): every topology value, both tiers, CPU-only and GPU, single- and multi-node
torchrun, in both formats. Regenerate them, then read the diff, with:

TAUGEN_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/golden/test_render_golden.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taugen.engines.runs.render import FORMATS, Format, render
from taugen.engines.runs.resolution import resolve_run
from tests.support.helpers import assert_golden
from tests.support.runs import RENDER_CASES, build_lab

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "runs"
CASES = sorted(p.stem for p in RENDER_CASES.glob("*.yaml"))
SNAPSHOTS = [(case, fmt) for case in CASES for fmt in FORMATS]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def test_the_cases_cover_the_matrix() -> None:
    """Every topology value, both tiers, CPU-only, single- and multi-node torchrun."""
    assert len(CASES) == 10
    for needed in (
        "unconstrained",
        "same-host",
        "same-accelerator-domain",
        "same-network-domain",
        "same-site",
    ):
        assert any(needed in case for case in CASES), needed
    assert {"cpu-only", "gpu-single-node-torchrun", "gpu-same-network-domain-torchrun-priority"} <= set(CASES)


@pytest.mark.parametrize(("case", "fmt"), SNAPSHOTS, ids=[f"{c}.{f}" for c, f in SNAPSHOTS])
def test_snapshot(project: Path, case: str, fmt: Format) -> None:
    rendered = render(resolve_run(RENDER_CASES / f"{case}.yaml", project), fmt)
    assert_golden(rendered, GOLDEN / f"{case}.{fmt}.yaml", __file__)


def test_every_golden_file_is_checked() -> None:
    """A snapshot left behind would look checked while nothing reads it."""
    assert {p.name for p in GOLDEN.iterdir()} == {f"{c}.{f}.yaml" for c, f in SNAPSHOTS}
