"""Fuzzing names and numbers (issue 17 items 5, 7, 9): hostile values in every named field.

A valid one-cluster project gets one value replaced: a valid name with a trailing newline or
another control character, a huge or near-bound number. Properties, through the CLI: never a
traceback (exit 3); a hostile value exits 2 with every error at `file:line:col` inside an
input file, nothing written, and no printed line that a CI runner would take for a workflow
command; a number within 2^63-1 builds or is refused the same way.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from taugen.cli import main
from tests.support.helpers import gpu_node, inventory, rules, snapshot, write_project

ERROR = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error: .* \[[^\]]+\]$")
NET = "net.unbounded-cloud.io/network-domain"
HOSTNAME = "kubernetes.io/hostname"
SIZE = "Standard_ND96isr_H200_v5"
INT64_MAX = 2**63 - 1

Build = Callable[[Path, Any], Path]


def _project(
    root: Path,
    node: dict[str, Any] | None = None,
    site: str = "eastus",
    rule: dict[str, str] | None = None,
    tenant: str = "team-a",
    **cluster: Any,
) -> Path:
    nodes = [node or gpu_node("h-0"), gpu_node("h-1")]
    rules_doc = rules(([SIZE], rule)) if rule else None
    return write_project(root, inventory(nodes, site=site), rules_doc, (tenant,), **cluster)


SITES: dict[str, Build] = {
    "node name": lambda root, v: _project(root, gpu_node(v)),
    "vmSize": lambda root, v: _project(root, gpu_node("h-0", vm_size=v)),
    "site": lambda root, v: _project(root, site=v),
    "network domain": lambda root, v: _project(root, gpu_node("h-0", labels={NET: v})),
    "hostname": lambda root, v: _project(root, gpu_node("h-0", labels={HOSTNAME: v})),
    "rule label key": lambda root, v: _project(root, rule={v: "x"}),
    "rule label value": lambda root, v: _project(root, rule={"pool.example.com/role": v}),
    "gpu-class": lambda root, v: _project(root, rule={"tau.azure.com/gpu-class": v}),
    "namespace": lambda root, v: _project(root, tenant=v),
    "cluster name": lambda root, v: _project(root, name=v),
    "local queue": lambda root, v: _project(root, clusterQueue=v),
}
VALID = {
    "node name": "h-0", "vmSize": SIZE, "site": "eastus", "network domain": "ib-a", "hostname": "h-0",
    "rule label key": "pool.example.com/role", "rule label value": "train", "gpu-class": "h200-141gb",
    "namespace": "team-a", "cluster name": "c1", "local queue": "taugrid",
}  # fmt: skip
CONTROL = st.sampled_from(["\n", "\r", "\r\n", "\t", "\x1b", "\x00", "\x85", "\u2028", "\n::error::x"])
NUMBERS = st.one_of(
    st.integers(INT64_MAX + 1, 2**70),
    st.integers(19, 400).map(lambda n: 10**n),
    st.sampled_from(["10E", "8Ei", "9223372036854775808", "9" * 65, "1e19", "99999999999999999999"]),
)
NEAR = st.integers(INT64_MAX - 1000, INT64_MAX)


def _build(project: Path) -> tuple[int, str]:
    cwd = Path.cwd()
    os.chdir(project.parent)
    try:
        result = CliRunner().invoke(main, ["build", "-c", str(project)], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert "Traceback" not in result.output and result.exit_code != 3, result.output
    return result.exit_code, result.output


def _refused(project: Path) -> None:
    """Exit 2, every error positioned inside an input file, nothing written, one line each."""
    before = snapshot(project.parent)
    code, output = _build(project)
    assert code == 2, output
    assert snapshot(project.parent) == before, "a refused build wrote files"
    errors = [line for line in output.splitlines() if not line.startswith("  hint: ")]
    assert errors, output
    for line in errors:
        assert not line.startswith("::"), line
        match = ERROR.match(line)
        assert match, f"not a positioned error: {line!r}"
        where = project.parent / match["file"]
        assert where.is_file() and 1 <= int(match["line"]) <= len(where.read_text().splitlines()), line


@given(site=st.sampled_from(sorted(SITES)), control=CONTROL, at_end=st.booleans())
def test_a_control_character_in_a_name_is_refused(
    tmp_path_factory: pytest.TempPathFactory, site: str, control: str, at_end: bool
) -> None:
    name = VALID[site]
    value = name + control if at_end else name[:1] + control + name[1:]
    _refused(SITES[site](tmp_path_factory.mktemp("p"), value))


@given(count=NUMBERS, as_text=st.booleans())
def test_a_gpu_count_beyond_int64_is_refused(
    tmp_path_factory: pytest.TempPathFactory, count: int | str, as_text: bool
) -> None:
    node = gpu_node("h-0")
    node["allocatable"]["nvidia.com/gpu"] = str(count) if as_text else count
    _refused(_project(tmp_path_factory.mktemp("p"), node))


@given(quota=NUMBERS.filter(lambda n: isinstance(n, int)))
def test_a_kai_quota_beyond_int64_is_refused(tmp_path_factory: pytest.TempPathFactory, quota: int) -> None:
    project = write_project(tmp_path_factory.mktemp("p"), inventory([gpu_node("h-0")]), scheduler="kai")
    data = yaml.safe_load(project.read_text())
    data["clusters"][0]["tenants"][0]["gpuQuota"] = quota
    project.write_text(yaml.safe_dump(data))
    _refused(project)


@given(count=NEAR, second=st.integers(0, 2000))
def test_gpu_counts_near_the_bound_build_or_are_refused_at_their_sum(
    tmp_path_factory: pytest.TempPathFactory, count: int, second: int
) -> None:
    root = tmp_path_factory.mktemp("p")
    nodes = [gpu_node("h-0", gpus=count), gpu_node("h-1", gpus=second)]
    project = write_project(root, inventory(nodes))
    if count + second > INT64_MAX:
        _refused(project)
    else:
        assert _build(project)[0] == 0
