"""What shell completion offers (issue 21): cluster, gpu-class and profile names.

A TAB press runs taugen again, so this module reads the few files it needs plainly (PyYAML's
C loader, no models, no positions) and only when asked: the CLI imports it inside its
completion callbacks, never at start-up. Anything unreadable completes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taugen import PACKAGE, repository

LOCK_FILE = "taugen.lock"
PROFILE_KIND = "WorkloadProfile"


def find_project(given: str | Path | None, here: Path) -> Path | None:
    """-c FILE when given, else taugen.yaml here or in the nearest parent folder up to the
    repository's root (as git finds .git; issue 32)."""
    if given:
        return Path(given) if Path(given).is_file() else None
    return repository.find_project(here)


def cluster_names(project: Path | None) -> list[str]:
    """The project's clusters, in file order."""
    data = _yaml(project)
    try:
        return [str(c["name"]) for c in data["clusters"]]
    except (KeyError, TypeError):
        return []


def gpu_classes(project: Path | None) -> list[str]:
    """Every gpu-class the lock knows: each class a build has written."""
    try:
        lock = json.loads((project.parent / LOCK_FILE).read_text()) if project else {}
        return sorted({c for entry in lock["clusters"].values() for c in entry["gpuQuota"]})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []


def profile_names(project: Path | None) -> list[str]:
    """The profiles the project reads: its `profiles:` files and folders, else the built-in ones."""
    data = _yaml(project)
    listed = data.get("profiles") if isinstance(data, dict) else None
    root = project.parent if project else Path.cwd()
    sources = [root / str(s) for s in listed] if isinstance(listed, list) else [PACKAGE / "profiles"]
    return sorted({name for path in _profile_files(sources) for name in _names(path)})


def _profile_files(sources: list[Path]) -> Iterator[Path]:
    """As load/profiles.profile_files lists them: a folder's *.yaml and *.yml, or the file."""
    for source in sources:
        if source.is_dir():
            yield from sorted(p for p in source.iterdir() if p.suffix in (".yaml", ".yml"))
        elif source.is_file():
            yield source


def _names(path: Path) -> list[str]:
    import yaml

    try:
        docs = list(yaml.load_all(path.read_text(), Loader=_loader()))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []
    metas = [d.get("metadata") for d in docs if isinstance(d, dict) and d.get("kind") == PROFILE_KIND]
    return [str(m["name"]) for m in metas if isinstance(m, dict) and "name" in m]


def _yaml(path: Path | None) -> Any:
    import yaml

    if path is None:
        return {}
    try:
        return yaml.load(path.read_text(), Loader=_loader())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}


def _loader() -> Any:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # a safe loader, C when built with it
