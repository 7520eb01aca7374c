"""What shell completion offers (issue 21): cluster, gpu-class and profile names.

A TAB press runs taugen again, so this module reads the few files it needs plainly (PyYAML's
C loader, no models, no positions) and only when asked: the CLI imports it inside its
completion callbacks, never at start-up. Anything unreadable completes nothing.

Everything offered is typed into the user's command line by the shell, unquoted (bash inserts a
completion as it is): only names a build could accept are offered (DNS-1123 names), so a
cluster name `$(curl …|sh)` in a pull request's taugen.yaml never runs when Enter is pressed
(issue 32). A file larger than MAX_BYTES completes nothing.
"""

from __future__ import annotations

import json
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from taugen import PACKAGE
from taugen.core import repository

LOCK_FILE = "taugen.lock"
PROFILE_KIND = "WorkloadProfile"
MAX_BYTES = 16 << 20  # the project, the lock and profiles are small; a TAB press reads no more
_NAME = re.compile(r"[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?")  # DNS-1123: cluster, class, profile
_UNREADABLE = (OSError, UnicodeDecodeError, ValueError, RecursionError, MemoryError)


def _offered(values: Iterable[object]) -> list[str]:
    """The values that are names (strings of DNS-1123 characters), in order: nothing else is
    ever typed into a command line."""
    return [v for v in values if isinstance(v, str) and _NAME.fullmatch(v)]


def find_project(given: str | Path | None, here: Path) -> Path | None:
    """-c FILE when given, else taugen.yaml here or in the nearest parent folder up to the
    repository's root (as git finds .git; issue 32)."""
    if given:
        return Path(given) if Path(given).is_file() else None
    return repository.find_project(here)


def cluster_names(project: Path | None) -> list[str]:
    """The project's clusters, in file order."""
    data = _yaml(project)
    clusters = data.get("clusters") if isinstance(data, dict) else None
    return (
        _offered(c.get("name") for c in clusters if isinstance(c, dict)) if isinstance(clusters, list) else []
    )


def gpu_classes(project: Path | None) -> list[str]:
    """Every gpu-class the lock knows: each class a build has written."""
    try:
        lock = json.loads(_text(project.parent / LOCK_FILE)) if project else {}
        return sorted(set(_offered(c for entry in lock["clusters"].values() for c in entry["gpuQuota"])))
    except (*_UNREADABLE, KeyError, TypeError, AttributeError):
        return []


def profile_names(project: Path | None) -> list[str]:
    """The profiles the project reads: its `profiles:` files and folders, else the built-in ones."""
    data = _yaml(project)
    listed = data.get("profiles") if isinstance(data, dict) else None
    root = project.parent if project else Path.cwd()
    sources = (
        [root / s for s in listed if isinstance(s, str)]
        if isinstance(listed, list)
        else [PACKAGE / "profiles"]
    )
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
        docs = list(yaml.load_all(_text(path), Loader=_loader()))
    except (*_UNREADABLE, yaml.YAMLError):
        return []
    metas = [d.get("metadata") for d in docs if isinstance(d, dict) and d.get("kind") == PROFILE_KIND]
    return _offered(m.get("name") for m in metas if isinstance(m, dict))


def _yaml(path: Path | None) -> Any:
    import yaml

    if path is None:
        return {}
    try:
        return yaml.load(_text(path), Loader=_loader())
    except (*_UNREADABLE, yaml.YAMLError):
        return {}


def _text(path: Path) -> str:
    """A regular file's text, at most MAX_BYTES (a FIFO or a larger file: ValueError)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        raise ValueError(f"{path}: not a regular file of at most {MAX_BYTES} bytes")
    with path.open("rb") as file:
        raw = file.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ValueError(f"{path}: it grew past {MAX_BYTES} bytes")
    return raw.decode("utf-8-sig")


def _loader() -> Any:
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # a safe loader, C when built with it
