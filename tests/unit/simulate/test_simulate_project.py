"""`taugen simulate` on a built project (S1-S6): the whole JSON answer, text, and bad input."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

import taugen.load.fast as fast
from tests.conftest import Run
from tests.support.helpers import write_yaml
from tests.support.runs import build_lab

CASES = Path(__file__).resolve().parents[2] / "cases" / "simulate"
WORKLOADS = CASES / "lab.yaml"
EXPECTED = CASES / "lab.expected.json"
JOBS = [{"name": "launcher", "workers": 1, "resources": {"cpu": "2"}}, {"name": "workers", "workers": 2}]


def _island_run(name: str, **fields: Any) -> dict[str, Any]:
    """A run of team-b on the gb200-island profile (nvl72-a: a0-a2, nvl72-b: b0-b1), 4 GPUs a pod."""
    return {
        "metadata": {"name": name, "namespace": "team-b"},
        "createdAt": "2026-11-29T10:00:00Z",
        "profile": "gb200-island",
        "resources": {"nvidia.com/gpu": 4},
        **fields,
    }


def _jobset(**fields: Any) -> dict[str, Any]:
    """A JobSet run js (K6): a one-pod CPU launcher, then two 4-GPU workers."""
    return _island_run("js", workload="jobset", jobs=JOBS, **fields)


def _lws(**fields: Any) -> dict[str, Any]:
    """A LeaderWorkerSet run serve (K5): three replicas of two 4-GPU pods."""
    return _island_run("serve", workload="leaderworkerset", replicas=3, size=2, **fields)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_lab(tmp_path_factory.mktemp("lab"))


def test_json_answer(run: Run, project: Path) -> None:
    """S6: the JSON shape is the documented one. TAUGEN_REGEN=1 rewrites the expected file."""
    result = run("simulate", WORKLOADS, "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    if os.environ.get("TAUGEN_REGEN"):
        EXPECTED.write_text(result.stdout)
    assert json.loads(result.stdout) == json.loads(EXPECTED.read_text())


def test_text_answer_names_every_run(run: Run, project: Path) -> None:
    result = run("simulate", WORKLOADS, "-c", project)
    assert result.exit_code == 0, result.output
    words = [line.split() for line in result.stdout.splitlines()]
    statuses = [w[:2] for w in words if w and w[0] in ("admitted", "pending", "evicted")]
    # S2: priority first (big-4), then createdAt in UTC (island-3 was created at 09:30Z)
    assert statuses == [
        ["pending", "team-b/big-4"],
        ["admitted", "team-a/serve-2"],
        ["admitted", "team-b/island-3"],
        ["evicted", "team-a/train-3"],
        ["admitted", "team-b/etl"],
        ["pending", "team-b/eval-1"],
    ]


def test_unknown_node_is_bad_input(run: Run, project: Path, tmp_path: Path) -> None:
    """S6: exit 2 with path:line:col and nothing simulated."""
    bad = write_yaml(
        tmp_path / "bad.yaml",
        {"kind": "WorkloadSet", "runs": [], "running": [{"node": "nowhere", "requests": {"cpu": "1"}}]},
    )
    result = run("simulate", bad, "-c", project)
    assert result.exit_code == 2
    assert "bad.yaml:4:9: error: node nowhere is not in the inventory [S1]" in result.stderr
    assert result.stdout == ""


def test_namespace_that_is_not_a_tenant_is_bad_input(run: Run, project: Path, tmp_path: Path) -> None:
    doc = {
        "kind": "WorkloadSet",
        "runs": [
            {
                "metadata": {"name": "x", "namespace": "team-z"},
                "createdAt": "2026-11-29T10:00:00Z",
                "profile": "h200-train",
                "resources": {"nvidia.com/gpu": 8},
            }
        ],
    }
    result = run("simulate", write_yaml(tmp_path / "ns.yaml", doc), "-c", project)
    assert result.exit_code == 2
    assert "namespace team-z is not a tenant of cluster lab" in result.stderr


def test_diff_simulate_reports_runs_that_change(run: Run, project: Path, tmp_path: Path) -> None:
    """diff --simulate: the base tree puts h200-b0 in fabric ib-a; HEAD (the built tree) does not."""
    base = tmp_path / "base"
    shutil.copytree(project.parent / "out", base)
    [nodes] = [f for f in (base / "lab" / "nodes").rglob("*.yaml") if "name: h200-b0\n" in f.read_text()]
    docs = list(yaml.safe_load_all(nodes.read_text()))
    for doc in docs:
        if doc["metadata"]["name"] == "h200-b0":
            doc["metadata"]["labels"]["tau.azure.com/network-domain"] = "ib-a"
    nodes.write_text(yaml.safe_dump_all(docs))
    result = run("diff", base, project.parent / "out", "-c", project, "--simulate", WORKLOADS, "-o", "json")
    assert result.exit_code == 0, result.output
    simulation = json.loads(result.stdout)["simulation"]
    headlines = [c["headline"] for c in simulation["changed"]]
    # base: rank 0 of serve-2 is placed again inside ib-a (its plan's first host, b0, is there),
    # and with a0 taken train-3 fits no fabric; HEAD: as in lab.expected.json
    assert headlines[:2] == [
        "team-a/serve-2: moves hosts h200-a0 x1, h200-b0 x1 → h200-b0 x1, h200-b1 x1",
        "team-a/train-3: pending → evicted: rank 1 (lost on h200-a1) found no free Ready host in "
        "eastus/ib-a: evicted and requeued",
    ]
    assert len(headlines) == 3 and headlines[2].startswith("team-b/eval-1: admitted → pending")


def test_negative_requests_are_bad_input(run: Run, project: Path, tmp_path: Path) -> None:
    """Issue 17 item 9: a negative request (a running pod's, or a run's) would free capacity that
    is not there; each is exit 2 at its position, as a run file's is (runs/load.py)."""
    bad = write_yaml(
        tmp_path / "bad.yaml",
        {
            "kind": "WorkloadSet",
            "runs": [
                {
                    "metadata": {"name": "etl", "namespace": "team-b"},
                    "createdAt": "2026-11-29T10:00:00Z",
                    "profile": "cpu-batch",
                    "resources": {"cpu": "-4", "memory": "1Gi"},
                }
            ],
            "running": [{"node": "h200-b0", "requests": {"nvidia.com/gpu": -8}}],
        },
    )
    result = run("simulate", bad, "-c", project)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{bad}:9:10: error: cpu is negative (-4) [run]\n  hint: request a value >= 0\n"
        f"{bad}:14:21: error: nvidia.com/gpu is negative (-8) [S1]\n"
        "  hint: a running pod requests a value >= 0\n"
    )


def test_leaderworkerset_replicas_each_take_one_domain(run: Run, project: Path, tmp_path: Path) -> None:
    """K5, S3: each replica is its own workload whose leader and workers share one NVLink
    domain: replica 0 takes the smallest island that holds it (nvl72-b, 2 hosts), replica 1
    the next (nvl72-a); quota is asked per replica, and the third's 8 GPUs exceed what is left."""
    doc = {"kind": "WorkloadSet", "runs": [_lws()]}
    result = run("simulate", write_yaml(tmp_path / "lws.yaml", doc), "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["runs"]
    quota = (
        "quota: nvidia.com/gpu in flavor taugrid-gb200-186gb: "
        "the run requests 8, 4 of the nominal 20 is unused"
    )
    got = [(r["name"], r["status"], [h["host"] for h in r["hosts"]], r["reason"]) for r in runs]
    assert got == [
        ("serve-0", "admitted", ["gb200-b0", "gb200-b1"], None),
        ("serve-1", "admitted", ["gb200-a0", "gb200-a1"], None),
        ("serve-2", "pending", [], quota),
    ]
    assert [r["ranks"] for r in runs[:1]] == [
        [{"rank": 0, "host": "gb200-b0"}, {"rank": 1, "host": "gb200-b1"}]
    ]


def test_a_jobset_run_prints_each_pod_set(run: Run, project: Path, tmp_path: Path) -> None:
    """K6, S6: the text report gives each pod set its line under the run, and -o json its
    podSets[]: a one-pod launcher on an island host, two workers in the island BestFit picks."""
    jobset = _jobset(image="ghcr.io/example/train:1.0", command=["python", "train.py"])
    path = write_yaml(tmp_path / "jobset.yaml", {"kind": "WorkloadSet", "runs": [jobset]})
    result = run("simulate", path, "-c", project)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if "pod set" in line]
    assert lines == [
        "            pod set launcher (1 pod)  gb200-b0 x1",
        "            pod set workers (2 pods)  gb200-b0 x1, gb200-b1 x1",
    ]
    result = run("simulate", path, "-c", project, "-o", "json")
    (found,) = json.loads(result.stdout)["runs"]
    assert found["podSets"] == [
        {"name": "launcher", "pods": 1, "hosts": [{"host": "gb200-b0", "count": 1}]},
        {
            "name": "workers",
            "pods": 2,
            "hosts": [{"host": "gb200-b0", "count": 1}, {"host": "gb200-b1", "count": 1}],
        },
    ]


def test_an_admitted_jobset_keeps_its_plan_and_replaces_a_lost_pod_in_its_pod_set(
    run: Run, project: Path, tmp_path: Path
) -> None:
    """S1, S5 with K6: an admitted JobSet's plan is indexed across its pod sets in order (pod 0
    the launcher, 1-2 the workers); with no running pod each is placed again (S5), on its
    planned host. When gb200-a1 goes down, worker pod 2 moves within the workers' island
    nvl72-a (to a2); on nvl72-b, whose other host has no 4 GPUs free, the JobSet is evicted,
    its reason naming the pod set."""

    def simulated(hosts: list[str], down: str) -> list[dict[str, object]]:
        jobset = _jobset(admitted={"ranks": {str(i): host for i, host in enumerate(hosts)}})
        found = []
        for events in ([], [{"nodeDown": down}]):
            doc = {"kind": "WorkloadSet", "runs": [jobset], "events": events}
            result = run("simulate", write_yaml(tmp_path / "admitted.yaml", doc), "-c", project, "-o", "json")
            assert result.exit_code == 0, result.output
            (one,) = json.loads(result.stdout)["runs"]
            found.append({k: one[k] for k in ("status", "reason", "ranks", "replaced")})
        return found

    def ranks(*hosts: str) -> list[dict[str, object]]:
        return [{"rank": i, "host": h} for i, h in enumerate(hosts)]

    assert simulated(["gb200-a0", "gb200-a0", "gb200-a1"], "gb200-a1") == [
        {
            "status": "admitted",
            "reason": None,
            "ranks": ranks("gb200-a0", "gb200-a0", "gb200-a1"),
            "replaced": [0, 1, 2],
        },
        {
            "status": "admitted",
            "reason": None,
            "ranks": ranks("gb200-a0", "gb200-a0", "gb200-a2"),
            "replaced": [0, 1, 2],
        },
    ]
    evicted = (
        "rank 2 of pod set workers (lost on gb200-b1) found no free Ready host in eastus/ib-g/nvl72-b: "
        "evicted and requeued"
    )
    assert simulated(["gb200-b0", "gb200-b0", "gb200-b1"], "gb200-b1")[1] == {
        "status": "evicted",
        "reason": evicted,
        "ranks": [],
        "replaced": [0, 1, 2],
    }


def test_an_admitted_jobsets_pod_indexes_run_across_its_pod_sets(
    run: Run, project: Path, tmp_path: Path
) -> None:
    """S1 with K6: three pods in all (1 + 2), so pod index 3 names no pod of the JobSet."""
    jobset = _jobset(admitted={"ranks": {"0": "gb200-a0", "3": "gb200-a1"}})
    bad = write_yaml(tmp_path / "bad.yaml", {"kind": "WorkloadSet", "runs": [jobset]})
    result = run("simulate", bad, "-c", project)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{bad}:3:3: error: runs.0: admitted.ranks names 3, but the run has pods 0..2 [S1]\n"
        "  hint: key each rank by its pod index\n"
    )


def test_an_admitted_leaderworkerset_keeps_the_replicas_its_plan_names(
    run: Run, project: Path, tmp_path: Path
) -> None:
    """S1, S5 with K5: pod index i of an admitted LeaderWorkerSet is replica i // size's pod
    i % size. Replica 0 is admitted on nvl72-a (a1, a2; its pod 1 running on a2, so only pod 0
    is placed again), so the new replica 1 takes nvl72-b, and replica 2's 8 GPUs exceed the
    quota left; without the plan replica 0 would have taken nvl72-b (the test above)."""
    lws = _lws(admitted={"ranks": {"0": "gb200-a1", "1": "gb200-a2"}})
    running = [{"node": "gb200-a2", "requests": {"nvidia.com/gpu": 4}, "run": "serve", "rank": 1}]
    doc = {"kind": "WorkloadSet", "runs": [lws], "running": running}
    result = run("simulate", write_yaml(tmp_path / "lws.yaml", doc), "-c", project, "-o", "json")
    assert result.exit_code == 0, result.output
    got = [
        (
            r["name"],
            r["status"],
            [h["rank"] for h in r["ranks"]],
            [h["host"] for h in r["ranks"]],
            r["replaced"],
        )
        for r in json.loads(result.stdout)["runs"]
    ]
    assert got == [
        ("serve-0", "admitted", [0, 1], ["gb200-a1", "gb200-a2"], [0]),
        ("serve-1", "admitted", [0, 1], ["gb200-b0", "gb200-b1"], []),
        ("serve-2", "pending", [], [], []),
    ]


def test_valid_runs_look_up_no_position(
    run: Run, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A position lookup scans the file's events (taugen/load/positions.py): a WorkloadSet's
    runs are checked without one unless a problem is found (1,000 runs took 26 s of lookups);
    the project's files take a few, however many runs there are."""
    calls: list[list[str | int]] = []
    real = fast.position

    def counted(
        text: str, index: int, loc: Sequence[str | int], key: bool, memo: dict[str, Any] | None = None
    ) -> tuple[int, int]:
        calls.append(list(loc))
        return real(text, index, loc, key, memo)

    monkeypatch.setattr(fast, "position", counted)
    job = {
        "workers": 2,
        "resources": {"nvidia.com/gpu": 4, "cpu": "8"},
        "policy": {"gpu_class": "gb200-186gb", "slice": {"level": "host", "size": 1}},
    }
    runs = [
        _island_run(f"r{i}", **job) if i % 2 else _island_run(f"r{i}", workload="jobset", jobs=JOBS)
        for i in range(20)
    ]
    result = run(
        "simulate", write_yaml(tmp_path / "many.yaml", {"kind": "WorkloadSet", "runs": runs}), "-c", project
    )
    assert result.exit_code == 0, result.output
    assert calls  # the project's own files are looked up (the counter is in the path)
    assert [c for c in calls if c[:1] == ["runs"]] == []  # none per run
