"""Issue 32: an integer beyond CEL's 64 bits in an object (`nominalQuota: 99…9`, 26 digits) was a
traceback in `taugen validate --crd` and in diff's transition rules (cel-python raised ValueError
`overflow` converting it). The rule is reported as not evaluated; the schema's types refuse the
value."""

from __future__ import annotations

from pathlib import Path

from taugen.validate.cel import BEYOND_INT64, cel_activation
from tests.conftest import REPO, Run, shared_crds

HUGE = 99999999999999999999999999


def test_an_integer_beyond_64_bits_gives_no_activation() -> None:
    assert cel_activation(self={"spec": {"weight": HUGE}}) is None
    assert cel_activation(self={"spec": {"weight": 2**63 - 1}}) is not None
    assert cel_activation(self=[1], oldSelf=[-(2**64)]) is None


def test_validate_reports_the_rule_unchecked_not_a_traceback(tmp_path: Path, run: Run) -> None:
    crds = shared_crds("kueue")
    queue = (REPO / "out" / "westus3-dev" / "clusterqueue.yaml").read_text()
    (tmp_path / "cq.yaml").write_text(queue.replace("nominalQuota: '0'", f"nominalQuota: {HUGE}", 1))
    result = run("validate", tmp_path / "cq.yaml", "--crd", crds)
    assert (result.exit_code, "Traceback" in result.output + result.stderr) == (1, False)
    assert BEYOND_INT64 in result.output
