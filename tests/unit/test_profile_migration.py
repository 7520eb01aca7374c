"""Profile migration: `deprecated: {replacedBy: NAME}` reaches the catalog (R30); a replacement
that is not a profile, or a chain that loops, is an input error with its position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taugen.load.profiles import ReplacementLoop, replacement_chain
from tests.support.helpers import gpu_node, inventory
from tests.support.unit import objects, problems_of, profile, run_build, write_profiles, write_project


def _deprecated(name: str, replaced_by: str, gpu_class: str | None = "h200-141gb") -> dict[str, Any]:
    return profile(name, gpu_class, "same-network-domain") | {"deprecated": {"replacedBy": replaced_by}}


def _project(root: Path, *docs: dict[str, Any]) -> Path:
    return write_project(root, inventory([gpu_node("h-0")]), profiles=write_profiles(root, *docs))


def test_catalog_entry_names_the_replacement(tmp_path: Path) -> None:
    project = _project(
        tmp_path, _deprecated("old", "new"), profile("new", "h200-141gb", "same-network-domain")
    )
    run_build(project)
    catalog = objects(tmp_path)["ConfigMap/kueue-system/taugen-profile-catalog"]
    entries = {e["name"]: e for e in yaml.safe_load(catalog["data"]["profiles.yaml"])["profiles"]}
    assert entries["old"]["deprecated"] == {"replacedBy": "new"}
    assert "deprecated" not in entries["new"]


@pytest.mark.parametrize(
    ("docs", "name", "message"),
    [
        (
            [_deprecated("a", "b"), _deprecated("b", "a")],
            "a",
            "profile 'a': the replacement chain loops (a -> b -> a)",
        ),
        ([_deprecated("a", "a")], "a", "profile 'a': the replacement chain loops (a -> a)"),
        (
            [_deprecated("a", "nowhere"), profile("b")],
            "a",
            "profile 'a' is replaced by 'nowhere', which is not a profile",
        ),
    ],
    ids=["two-profile-loop", "self-loop", "unknown-replacement"],
)
def test_broken_migrations_are_input_errors(
    tmp_path: Path, docs: list[dict[str, Any]], name: str, message: str
) -> None:
    project = _project(tmp_path, *docs)
    found = problems_of(lambda: run_build(project))
    first = found[0]
    assert (first.path.name, first.line, first.col, first.rule, first.message) == (
        f"{name}.yaml",
        10,
        15,
        "profile",
        message,
    )
    assert first.hint
    assert not (tmp_path / "out").exists()


def test_every_profile_of_a_loop_is_reported(tmp_path: Path) -> None:
    found = problems_of(lambda: run_build(_project(tmp_path, _deprecated("a", "b"), _deprecated("b", "a"))))
    assert [(p.path.name, p.message) for p in found] == [
        ("a.yaml", "profile 'a': the replacement chain loops (a -> b -> a)"),
        ("b.yaml", "profile 'b': the replacement chain loops (b -> a -> b)"),
    ]


def test_replacement_chain() -> None:
    replaced_by = {"v1": "v2", "v2": "v3", "v3": None}
    assert replacement_chain("v1", replaced_by) == ["v1", "v2", "v3"]
    assert replacement_chain("v3", replaced_by) == ["v3"]
    with pytest.raises(ReplacementLoop) as loop:
        replacement_chain("x", {"x": "y", "y": "z", "z": "y"})
    assert loop.value.chain == ["x", "y", "z", "y"]


def test_deprecating_a_profile_changes_the_inputs_digest(tmp_path: Path) -> None:
    """The catalog must be rebuilt to carry the deprecation (R32), so the digest sees it."""
    current = profile("new", "h200-141gb", "same-network-domain")
    run_build(_project(tmp_path / "a", profile("old", "h200-141gb", "same-network-domain"), current))
    run_build(_project(tmp_path / "b", _deprecated("old", "new"), current))
    digests = {
        yaml.safe_load((tmp_path / r / "taugen.lock").read_text())["clusters"]["c1"]["inputsDigest"]
        for r in "ab"
    }
    assert len(digests) == 2
