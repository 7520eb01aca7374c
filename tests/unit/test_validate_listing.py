"""What `taugen validate PATH` reads stays inside PATH (issue 17 items 7 and 9).

The corpus (tests/cases/validate/kustomization-*) holds the kustomization entries; links
cannot live in the corpus (the case runner copies it), so they are made here.
"""

from __future__ import annotations

from pathlib import Path

from taugen.core.errors import Problem
from taugen.validate.resources import manifest_files

OBJECT = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
KUSTOMIZE = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """tmp/tree (validated, one manifest) and tmp/outside (a manifest nobody may read)."""
    (tmp_path / "tree").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "tree" / "a.yaml").write_text(OBJECT)
    (tmp_path / "outside" / "secret.yaml").write_text(OBJECT)
    return tmp_path / "tree", tmp_path / "outside"


def _messages(problems: list[Problem]) -> list[tuple[Path, int, int, str, str]]:
    return [(p.path, p.line, p.col, p.rule, p.message) for p in problems]


def test_a_folder_link_to_outside_is_a_finding_and_not_read(tmp_path: Path) -> None:
    tree, outside = _tree(tmp_path)
    (tree / "evil.yaml").symlink_to(outside / "secret.yaml")
    (tree / "elsewhere").symlink_to(outside)
    files, problems = manifest_files([tree])
    assert files == [tree / "a.yaml"]
    assert _messages(problems) == [
        (
            tree / "elsewhere",
            0,
            0,
            "path",
            f"elsewhere leads outside {tree}, the folder validated: nothing outside is read",
        ),
        (
            tree / "evil.yaml",
            0,
            0,
            "path",
            f"evil.yaml leads outside {tree}, the folder validated: nothing outside is read",
        ),
    ]


def test_a_folder_link_to_itself_is_a_cycle_not_a_recursion_error(tmp_path: Path) -> None:
    tree, _ = _tree(tmp_path)
    (tree / "sub").mkdir()
    (tree / "sub" / "loop").symlink_to(tree)
    files, problems = manifest_files([tree])
    assert files == [tree / "a.yaml"]
    assert _messages(problems) == [
        (
            tree / "sub" / "loop",
            0,
            0,
            "path",
            "loop leads back to a folder that includes it: a kustomization cycle",
        )
    ]


def test_a_link_inside_the_folder_is_followed(tmp_path: Path) -> None:
    tree, _ = _tree(tmp_path)
    (tree / "b.yaml").symlink_to(tree / "a.yaml")
    files, problems = manifest_files([tree])
    assert (files, problems) == ([tree / "a.yaml", tree / "b.yaml"], [])


def test_a_kustomization_entry_that_is_a_link_to_outside_is_a_finding(tmp_path: Path) -> None:
    tree, outside = _tree(tmp_path)
    (tree / "link.yaml").symlink_to(outside / "secret.yaml")
    (tree / "kustomization.yaml").write_text(KUSTOMIZE + "- a.yaml\n- link.yaml\n")
    files, problems = manifest_files([tree])
    assert files == [tree / "a.yaml"]
    assert _messages(problems) == [
        (
            tree / "kustomization.yaml",
            5,
            3,
            "kustomization",
            f"link.yaml leads outside {tree}, the folder validated: nothing outside is read",
        )
    ]


def test_a_file_path_bounds_the_walk_at_its_folder(tmp_path: Path) -> None:
    tree, _ = _tree(tmp_path)
    (tree / "sub").mkdir()
    (tree / "sub" / "kustomization.yaml").write_text(KUSTOMIZE + "- ../a.yaml\n")
    files, problems = manifest_files([tree / "sub" / "kustomization.yaml"])
    assert files == []
    assert [p.message for p in problems] == [
        f"../a.yaml leads outside {tree / 'sub'}, the folder validated: nothing outside is read"
    ]
    files, problems = manifest_files([tree / "sub" / "kustomization.yaml", tree])  # `tree` reads it
    assert files == [tree / "a.yaml"]


def test_an_entry_is_echoed_on_one_line_and_cut_short(tmp_path: Path) -> None:
    """A newline would start a GitHub Actions workflow command; 1 MB would flood stderr."""
    tree, _ = _tree(tmp_path)
    (tree / "kustomization.yaml").write_text(KUSTOMIZE + '- "a\\n::error::x"\n- "' + "y" * 500 + '"\n')
    _, problems = manifest_files([tree])
    assert [p.message for p in problems] == [
        "a\\n::error::x is listed but does not exist",
        "y" * 119 + "… cannot be read: File name too long",  # ENAMETOOLONG: a finding, not exit 3
    ]
