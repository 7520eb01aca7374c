"""`taugen init`: scaffold a config repository — project, inventory, rules, CI, Argo CD, Flux.

Nothing existing is ever overwritten: when any file to write is already there, init names
them all and writes nothing. Nothing is written through a symbolic link (issue 17 item 4):
not the target folder, not a folder inside it; the files are written by taugen.write.safewrite.
"""

from __future__ import annotations

import os
from pathlib import Path

from taugen.commands.init.files import FLEET_MANAGER, Context, scaffold_files
from taugen.core.choices import DEFAULT_CLUSTER, DEFAULT_REPO_URL, Platform
from taugen.core.errors import TaugenError
from taugen.core.names import dns1123_label_error
from taugen.write.safewrite import write_files


class InitRefused(TaugenError):
    """init would overwrite a file, or was given a bad cluster name: nothing was written."""


def init(
    target: Path,
    cluster: str = DEFAULT_CLUSTER,
    repo_url: str = DEFAULT_REPO_URL,
    platform: Platform = "aks",
    fleet: bool = False,
) -> list[str]:
    """Write the scaffold into target (created if missing); the relative paths written.
    `fleet`: a MultiKueue manager fleet-hub and the workers <cluster> and <cluster>-2 (§11)."""
    name = f"{cluster}-2" if fleet else cluster  # the longest name written
    if why := dns1123_label_error(name):
        raise InitRefused(f"--cluster {cluster!r} {why}; use a DNS-1123 label such as eastus-prod")
    if fleet and cluster == FLEET_MANAGER:
        raise InitRefused(f"--cluster {cluster!r} is the manager's name with --fleet; choose another")
    content = scaffold_files(Context(cluster, repo_url, platform, fleet))
    _refuse_links(target, list(content))
    _refuse_existing(target, list(content))
    write_files(target, content)
    return list(content)


def _refuse_links(target: Path, paths: list[str]) -> None:
    """The target, or a folder init would write into, is a symbolic link: named, nothing written."""
    if target.is_symlink():
        raise InitRefused(f"{target} is a symbolic link: init never writes through one; nothing was written")
    folders = {folder for rel in paths for folder in Path(rel).parents if folder != Path()}
    links: list[Path] = []
    for folder in sorted(folders):  # a parent sorts before its children: name the outermost link
        if not any(folder.is_relative_to(link) for link in links) and (target / folder).is_symlink():
            links.append(folder)
    if links:
        raise InitRefused(
            f"refusing to write through {len(links)} symbolic link(s) in {target}: "
            f"{', '.join(f.as_posix() for f in links)}; nothing was written"
        )


def _refuse_existing(target: Path, paths: list[str]) -> None:
    """Every path that is already there (a dangling link too), named at once: nothing written."""
    if target.exists() and not target.is_dir():
        raise InitRefused(f"{target} is a file, not a folder; nothing was written")
    existing = [rel for rel in paths if _in_the_way(target, rel)]
    if existing:
        raise InitRefused(
            f"refusing to overwrite {len(existing)} existing file(s) in {target}: "
            f"{', '.join(existing)}; nothing was written"
        )


def _in_the_way(target: Path, rel: str) -> bool:
    """The file exists, or a folder it needs is a file."""
    path = target / rel
    folders = [p for p in path.parents if p.is_relative_to(target) and p != target]
    return os.path.lexists(path) or any(os.path.lexists(p) and not p.is_dir() for p in folders)
