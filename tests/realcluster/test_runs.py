"""The runs taugen renders pass the real API server's dry run (issue 31, §7 render, K4, K5):
every example run (Job and its torchrun Service, LeaderWorkerSet, JobSet) rendered with
`taugen render`, its namespace created, and each object server-side applied with dryRun=All:
no refusal, and the server's answer keeps the scheduler contract as rendered (labels, annotations,
each pod template's placement and resources; what the server adds is not compared)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.conftest import REPO, Run
from tests.realcluster.apply import Refusal, apply_all, identity
from tests.realcluster.controlplane import ControlPlane
from tests.realcluster.kube import Kube, Object

pytestmark = pytest.mark.realcluster
RUNS = sorted(p.name for p in (REPO / "examples" / "runs").glob("*.yaml"))


@pytest.mark.parametrize("run_file", RUNS)
def test_a_rendered_run_passes_the_server_dry_run(
    run_file: str, run: Run, control_plane: ControlPlane
) -> None:
    done = run("render", "-c", REPO / "taugen.yaml", REPO / "examples" / "runs" / run_file)
    assert done.exit_code == 0, done.output
    objects: list[Object] = [d for d in yaml.safe_load_all(done.stdout) if d]
    kube = control_plane.kube
    for name in sorted({o["metadata"].get("namespace") or "default" for o in objects}):
        Kube.expect(kube.apply({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}))
    placed = [o | {"metadata": {"namespace": "default"} | o["metadata"]} for o in objects]
    answers, refusals = apply_all(kube, placed, dry_run=True)
    assert refusals == list[Refusal]()
    rendered = {identity(o): _contract(o) for o in placed}
    assert any(p for c in rendered.values() for p in c["templates"])  # a contract to compare
    assert {k: _kept(_contract(a), rendered.get(k)) for k, a in answers.items()} == rendered
    assert all(kube.get(o) is None for o in placed)  # a dry run: nothing was written


def _kept(answer: Any, rendered: Any) -> Any:
    """The server's answer where the rendered contract has a value: what it adds (a Job's pod
    labels, schedulerName: default-scheduler) is left out, what it changes or drops shows."""
    if isinstance(rendered, dict) and isinstance(answer, dict):
        return {k: _kept(answer[k], v) for k, v in rendered.items() if k in answer}
    if isinstance(rendered, list) and isinstance(answer, list) and len(rendered) == len(answer):
        return [_kept(a, v) for a, v in zip(answer, rendered, strict=True)]
    return answer


def _contract(obj: Object) -> dict[str, Any]:
    """What the schedulers read (§7, K4): the object's labels and annotations, and each pod
    template's labels, placement (node selector, tolerations, affinity, priority class,
    scheduler) and container resources, wherever the kind keeps its templates."""
    meta = obj["metadata"]
    return {
        "metadata": {k: meta[k] for k in ("labels", "annotations") if k in meta},
        "templates": [_placement(t) for t in _templates(obj.get("spec") or {})],
    }


def _templates(value: Any) -> list[dict[str, Any]]:
    """Every pod template under `value`: a map whose `spec` has containers."""
    if isinstance(value, dict):
        spec = value.get("spec")
        here = [value] if isinstance(spec, dict) and "containers" in spec else []
        return here + [t for _, v in sorted(value.items()) for t in _templates(v)]
    if isinstance(value, list):
        return [t for item in value for t in _templates(item)]
    return []


def _placement(template: dict[str, Any]) -> dict[str, Any]:
    pod, meta = template["spec"], template.get("metadata") or {}
    keys = ("nodeSelector", "tolerations", "affinity", "priorityClassName", "schedulerName")
    return {
        "metadata": {k: meta[k] for k in ("labels", "annotations") if k in meta},
        "pod": {k: pod[k] for k in keys if k in pod},
        "resources": [c.get("resources") for c in pod["containers"]],
    }
