"""Issue 21: a README a newcomer reads in five minutes, and docs/ for the rest, with no link
into the repository that leads nowhere."""

from __future__ import annotations

import re

from tests.conftest import REPO

PAGES = sorted((REPO / "docs").glob("*.md"))


def test_the_readme_is_short_and_links_every_page() -> None:
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) < 200
    assert {f"docs/{p.name}" for p in PAGES} <= set(re.findall(r"\]\((docs/[^)#]+)", readme))


def test_every_relative_link_leads_to_a_file() -> None:
    broken = []
    for page in [REPO / "README.md", *PAGES]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if target.startswith(("http", "#", "mailto:")):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert broken == []
