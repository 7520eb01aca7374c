"""Kill `taugen build` with SIGKILL and check what it leaves (issue 7, crash safety).

A two-cluster project, both clusters on one generated inventory, is built once (the old
tree); its inventory is then replaced by the changed fleet, so a build swaps both cluster
folders and the lock. Each trial restores the old state, forks a child process that runs
`taugen build`, and kills it with SIGKILL: after `delay` seconds, or at a named point inside
taugen/write/journal.py (its TAUGEN_CRASH_AT hook, set in the child).
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.generate import generate
from taugen.cli import main
from taugen.write import journal as tree
from taugen.write.journal import read_files, recover, staging_dir

CLUSTERS = ("c1", "c2")
# The windows between renames: after staging, at the commit, between and after the renames.
NAMED_POINTS = ("staged", "committed", "swapped:1", "swapped:2", "renamed")
CLUSTER = (
    "  - {{name: {}, inventory: inventory.yaml, rules: [values.yaml], tenants: [{{namespace: team-llm}}]}}\n"
)
PROJECT = "apiVersion: taugen.tau.azure.com/v1alpha1\nkind: Project\nclusters:\n" + "".join(
    CLUSTER.format(c) for c in CLUSTERS
)

State = dict[str, bytes]  # out/<path> and taugen.lock -> bytes


@dataclass(frozen=True)
class Fixture:
    work: Path  # the project the trials run in
    old: State  # out/ and the lock before the build
    new: State  # after it
    old_inventory: bytes
    new_inventory: bytes
    seconds: float  # one uninterrupted build
    writing: float  # of which the last part, from the staging folder's appearance to the end


def state(project: Path) -> State:
    files = {f"out/{rel}": data for rel, data in read_files(project / "out").items()}
    lock = project / "taugen.lock"
    if lock.exists():
        files["taugen.lock"] = lock.read_bytes()
    return files


@dataclass(frozen=True)
class Child:
    pid: int
    log: Path


def build(project: Path, point: str | None = None) -> Child:
    """`taugen build` in a forked child: the imports are paid once, so a delay measures the build."""
    log = project.parent / "build.log"
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            handle = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(handle, 1)
            os.dup2(handle, 2)
            tree._CRASH_AT = point
            main(["build", "-c", str(project / "taugen.yaml")])
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 3
        finally:
            os._exit(code)
    return Child(pid, log)


def finished(child: Child) -> tuple[int, str]:
    """The child's exit code (-9 when killed) and what it printed."""
    _, status = os.waitpid(child.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return code, child.log.read_text(errors="replace")


def prepare(root: Path, nodes: int) -> Fixture:
    """The old state built, the new state known, and a work folder holding the old state."""
    old_fleet = generate(root / "old", nodes, forms=["native"])["native"]
    new_fleet = generate(root / "new", nodes, forms=["native"], changed=True)["native"]
    work = root / "work"
    work.mkdir()
    (work / "taugen.yaml").write_text(PROJECT)
    shutil.copy(old_fleet.project.parent / "values.yaml", work / "values.yaml")
    old_inventory, new_inventory = old_fleet.inventory.read_bytes(), new_fleet.inventory.read_bytes()
    old = _built(work, old_inventory)
    (work / "inventory.yaml").write_bytes(new_inventory)
    started = time.monotonic()
    child = build(work)
    staged = _staging_seen(work, child)
    code, err = finished(child)
    assert code == 0, err
    ended = time.monotonic()
    assert ended - staged > 0, "the build ended before it staged anything"
    new = state(work)
    changed = [c for c in CLUSTERS if _cluster(old, c) != _cluster(new, c)]
    assert changed == list(CLUSTERS), "the changed fleet must change both clusters"
    return Fixture(work, old, new, old_inventory, new_inventory, ended - started, ended - staged)


def _staging_seen(work: Path, child: Child) -> float:
    """Wait until the build starts writing (its staging folder appears), or ends; when that was."""
    staging = staging_dir(work / "out")
    while not staging.exists() and not _ended(child):
        time.sleep(0.0005)
    return time.monotonic()


def _ended(child: Child) -> bool:
    """The child has exited (a zombie until `finished` reaps it)."""
    stat = Path(f"/proc/{child.pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def _built(work: Path, inventory: bytes) -> State:
    (work / "inventory.yaml").write_bytes(inventory)
    code, err = finished(build(work))
    assert code == 0, err
    return state(work)


def _cluster(files: State, name: str) -> State:
    return {k: v for k, v in files.items() if k.startswith(f"out/{name}/")}


def restore(fixture: Fixture) -> None:
    """The old tree and lock, and the new inventory: what a build of the change starts from."""
    work = fixture.work
    shutil.rmtree(work / "out", ignore_errors=True)
    for rel, data in fixture.old.items():
        target = work / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (work / "inventory.yaml").write_bytes(fixture.new_inventory)


def leftovers(work: Path) -> list[str]:
    """Anything beside the project's own files: staging folders, temporary files."""
    expected = {"taugen.yaml", "values.yaml", "inventory.yaml", "taugen.lock", "out"}
    return sorted(p.name for p in work.iterdir() if p.name not in expected)


def trial(
    fixture: Fixture, *, delay: float | None = None, point: str | None = None, writing: bool = False
) -> str:
    """One kill; returns which tree the recovered state is (`old` or `new`). The kill comes
    `delay` seconds after the start, or after the staging folder appears when `writing`, or
    at a named point. Asserts every folder is whole right after the kill, old or new after
    recovery, the lock matching the tree, and that the next build succeeds, writes the new
    state and leaves nothing behind."""
    restore(fixture)
    child = build(fixture.work, point)
    if delay is not None:
        if writing:
            _staging_seen(fixture.work, child)
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
    code, err = finished(child)
    assert code in (0, -signal.SIGKILL), err
    killed = state(fixture.work)
    for cluster in CLUSTERS:  # each folder is swapped whole
        assert _cluster(killed, cluster) in (_cluster(fixture.old, cluster), _cluster(fixture.new, cluster))
    recover(fixture.work / "out", fixture.work / "taugen.lock")  # what the next build does first
    recovered = state(fixture.work)
    assert recovered in (fixture.old, fixture.new), "a mixed tree after recovery"
    assert leftovers(fixture.work) == []
    code, err = finished(build(fixture.work))
    assert code == 0, err
    after = state(fixture.work)
    assert after == fixture.new, [
        k for k in sorted(set(after) | set(fixture.new)) if after.get(k) != fixture.new.get(k)
    ]
    assert leftovers(fixture.work) == []
    return "old" if recovered == fixture.old else "new"


def delays(fixture: Fixture, count: int) -> list[tuple[float, bool]]:
    """`count` kills: half spread over the whole build, half over its writing (from the staging
    folder's appearance), each a little past its end, so the renames' window is hit whatever
    the machine's load makes of the build's duration."""
    whole = [
        (fixture.seconds * 1.1 * (i + 0.5) / (count - count // 2), False) for i in range(count - count // 2)
    ]
    writes = [(fixture.writing * 1.2 * (i + 0.5) / max(count // 2, 1), True) for i in range(count // 2)]
    return sorted(whole + writes, key=lambda kill: (kill[1], kill[0]))
