"""T5, T8: preflight checks a run against its own ClusterQueue (its LocalQueue's) and, in a
cohort, against what that queue could use with the cohort idle: its nominal quota plus what the
others lend, within its borrowing limit (Kueue's potentialAvailable). The example's eastus-prod
is a cohort: team-llm is guaranteed 24 H200 GPUs and may borrow up to 16 more (taugen.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import REPO, Run

CONFIG = REPO / "taugen.yaml"
RUN = (REPO / "examples" / "runs" / "llama-pretrain.yaml").read_text()


def _quota_check(run: Run, tmp_path: Path, workers: int) -> tuple[int, dict[str, object]]:
    run_file = tmp_path / "run.yaml"
    run_file.write_text(RUN.replace("workers: 4", f"workers: {workers}"))
    result = run("preflight", run_file, "-c", CONFIG, "-o", "json")
    checks = json.loads(result.stdout)["checks"]
    return result.exit_code, next(c for c in checks if c["id"] == "quota")


def test_a_run_that_fits_by_borrowing_is_eligible(run: Run, tmp_path: Path) -> None:
    """32 GPUs: more than team-llm's 24 guaranteed, within the 40 it may use when the cohort is idle."""
    assert _quota_check(run, tmp_path, 4) == (
        0,
        {
            "id": "quota",
            "ok": True,
            "message": "ClusterQueue taugrid-team-llm (cohort taugrid), flavor taugrid-h200-141gb: "
            "cpu 360 of 300k (100k nominal), memory 6400Gi of 300Ti (100Ti nominal), "
            "nvidia.com/gpu 32 of 40 (24 nominal), tau.azure.com/torchrun-host-slot 4 of 5 (3 nominal)",
        },
    )


def test_a_run_past_the_borrowing_limit_is_not_eligible(run: Run, tmp_path: Path) -> None:
    assert _quota_check(run, tmp_path, 6) == (
        1,
        {
            "id": "quota",
            "ok": False,
            "message": "ClusterQueue taugrid-team-llm (cohort taugrid), flavor taugrid-h200-141gb: "
            "nvidia.com/gpu 48 exceeds the 40 it could use with the cohort idle (24 nominal; lacks 8); "
            "tau.azure.com/torchrun-host-slot 6 exceeds the 5 it could use with the cohort idle "
            "(3 nominal; lacks 1)",
        },
    )
