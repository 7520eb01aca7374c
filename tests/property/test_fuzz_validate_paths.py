"""Adversarial kustomizations and links for `taugen validate PATH` (issue 17 items 7 and 9).

Kustomizations whose resources are drawn from paths that leave PATH (`..`, absolute, a link
to outside), lead back into a folder being read (`.`, `..`, a link to an ancestor), URLs,
non-strings, and plain files and folders; links drawn into the folders too. Always: no
traceback (exit 3), exit 0 or 1, and nothing outside PATH is read (the manifest outside,
named `outside-secret`, never appears, and no more resources than PATH holds are counted).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from taugen.cli import main

EXAMPLES = settings() if os.environ.get("HYPOTHESIS_PROFILE") == "long" else settings(max_examples=100)
OBJECT = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "inside"}}
SECRET = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "outside-secret"}, "bad": 1}
ENTRIES: list[Any] = [
    "a.yaml", "sub", "sub/b.yaml", ".", "..", "../..", "./kustomization.yaml", "../outside/secret.yaml",
    "link-out.yaml", "link-up", "sub/link-loop", "/etc/hostname", "https://example.com/x", "git@h:x.git",
    {"a": 1}, 5, "", None, "missing.yaml", "sub/../a.yaml", "x" * 300,
]  # fmt: skip
LINKS = {  # path in the tree -> target (relative to the sandbox)
    "tree/link-out.yaml": "outside/secret.yaml",
    "tree/link-up": ".",
    "tree/sub/link-loop": "tree",
    "tree/sub/link-secret.yaml": "outside/secret.yaml",
}
SUMMARY = re.compile(r"^(\d+) resources in (\d+) files", re.MULTILINE)


def _kustomization(resources: Any) -> dict[str, Any]:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": resources}


@EXAMPLES
@given(
    top=st.lists(st.sampled_from(ENTRIES), max_size=6) | st.sampled_from([{"a": 1}, "a.yaml", 3]),
    sub=st.none() | st.lists(st.sampled_from(ENTRIES), max_size=4),
    links=st.sets(st.sampled_from(sorted(LINKS))),
    target=st.sampled_from(["tree", "tree/sub", "tree/kustomization.yaml", "tree/sub/b.yaml"]),
)
def test_validate_never_reads_outside_its_path(top: Any, sub: Any, links: set[str], target: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        box = Path(tmp)
        for folder in ("outside", "tree/sub"):
            (box / folder).mkdir(parents=True)
        (box / "outside" / "secret.yaml").write_text(yaml.safe_dump(SECRET))
        (box / "tree" / "a.yaml").write_text(yaml.safe_dump(OBJECT))
        (box / "tree" / "sub" / "b.yaml").write_text(yaml.safe_dump(OBJECT))
        (box / "tree" / "kustomization.yaml").write_text(yaml.safe_dump(_kustomization(top)))
        if sub is not None:
            (box / "tree" / "sub" / "kustomization.yaml").write_text(yaml.safe_dump(_kustomization(sub)))
        for link in sorted(links):
            (box / link).symlink_to(box / LINKS[link])

        result = CliRunner().invoke(main, ["validate", str(box / target)], catch_exceptions=False)

        assert "Traceback" not in result.output and result.exit_code in (0, 1), result.output
        assert "outside-secret" not in result.output, result.output
        (counts,) = SUMMARY.findall(result.output)
        assert int(counts[0]) <= 2, result.output  # a.yaml and sub/b.yaml are all PATH holds
