"""Writing the files a user names (issue 17 item 4): never through a link, never over a non-file.

A pull request controls the checkout, so any path taugen writes may already be a symbolic
link, a FIFO, a device or a folder. Every write goes through here:

- `refuse_unsafe(path)`: the path is missing or a regular file, else InputError (exit 2).
- `write_file(path, data)`: atomic; a temporary file beside it (created with O_EXCL and
  O_NOFOLLOW), then a rename, which replaces the entry and never follows it. An existing
  file keeps its mode. `verify` may check the temporary file before the rename.
- `write_files(root, files)`: many files under root, folders created without following
  links; all staged first, then renamed, so a fault (a full disk) leaves what was there.
- `replace_files(root, files, stale)`: write_files, then remove what an older version wrote
  into those folders and this one does not (`taugen schema --out`).

Every OS error becomes an InputError naming the path and the error in words (rule `io`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from taugen.core.errors import InputError, Problem, Rule

RULE: Rule = "io"
_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)
FAULT_HINT = "free space or permissions, then run again"
HINT = "taugen writes only regular files and never follows a symbolic link: remove it or choose another path"


def refused(path: Path, message: str, hint: str = HINT) -> InputError:
    return InputError([Problem(path, 0, 0, RULE, message, hint)])


def os_error(path: Path, err: OSError) -> InputError:
    """An OS fault (read-only, full disk, no permission) in words, not a traceback (exit 2)."""
    words = err.strerror or str(err)
    return refused(path, f"cannot write: {words}", FAULT_HINT)


def kind_of(path: Path) -> str | None:
    """None when path is missing or a regular file; else what it is, e.g. `a symbolic link`."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        raise os_error(path, err) from None
    return next((words for test, words in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "no file")


def refuse_unsafe(path: Path) -> None:
    if (kind := kind_of(path)) is not None:
        raise refused(path, f"{kind}, not a regular file: refusing to write it")


def make_folders(root: Path, folder: Path) -> list[Path]:
    """Create folder (root or under it) and the folders between; refuse a link or a non-folder
    on the way. The folders created, outermost first (to remove them again on a fault)."""
    created: list[Path] = []
    for step in [*reversed(folder.relative_to(root).parents), folder.relative_to(root)]:
        path = root / step
        try:
            mode = path.lstat().st_mode
        except FileNotFoundError:
            _mkdir(path, parents=path == root)
            created.append(path)
            continue
        except OSError as err:
            raise os_error(path, err) from None
        if not stat.S_ISDIR(mode):
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a folder"
            raise refused(path, f"{what}: refusing to write into it")
    return created


def _mkdir(path: Path, *, parents: bool) -> None:
    try:
        path.mkdir(parents=parents)  # mkdir never follows a link in the last component
    except OSError as err:
        raise os_error(path, err) from None


def _temp_file(folder: Path, name: str) -> tuple[int, Path]:
    """A new file beside the target; O_NOFOLLOW and O_EXCL: never an existing entry."""
    path = folder / f".{name}.{secrets.token_hex(4)}.taugen-tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags, 0o666), path


def stage(path: Path, data: bytes) -> Path:
    """The temporary file holding data, beside path (path itself is checked, not touched)."""
    refuse_unsafe(path)
    try:
        fd, temporary = _temp_file(path.parent, path.name)
    except OSError as err:
        raise os_error(path, err) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if os.path.lexists(path):
            temporary.chmod(stat.S_IMODE(path.lstat().st_mode))
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise os_error(path, err) from None
    return temporary


def commit(temporary: Path, path: Path) -> None:
    """Rename the staged file onto path, checking path once more (it may have changed since)."""
    try:
        refuse_unsafe(path)
        temporary.replace(path)  # replaces the entry itself, never what a link points to
    except InputError:
        temporary.unlink(missing_ok=True)
        raise
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise os_error(path, err) from None


def write_file(path: Path, data: bytes, verify: Callable[[Path], None] | None = None) -> None:
    """Write data to path atomically; `verify(temporary)` may raise to keep path as it was."""
    temporary = stage(path, data)
    try:
        if verify is not None:
            verify(temporary)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    commit(temporary, path)


def write_files(root: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write files (relative path -> bytes) under root: every file staged, then all renamed.
    On a fault the staged files and the folders made are removed again; the paths written."""
    created: list[Path] = []
    staged: list[tuple[Path, Path]] = []
    try:
        for rel, data in files.items():
            path = root / rel
            created += make_folders(root, path.parent)
            staged.append((stage(path, data), path))
        for temporary, path in staged:
            commit(temporary, path)
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        for folder in reversed(created):
            _remove_empty(folder)
        raise
    return [path for _, path in staged]


def replace_files(root: Path, files: Mapping[str, bytes], stale: Iterable[str]) -> list[Path]:
    """write_files, then unlink each regular file in a folder just written to whose path (relative
    to root) matches a `stale` glob and that `files` does not name; the paths written. Only those
    folders are listed: write_files has made sure they are real folders, not links."""
    written = write_files(root, files)
    patterns = tuple(stale)
    for folder in sorted({path.parent for path in written}):
        for path in sorted(folder.iterdir()):
            rel = path.relative_to(root).as_posix()
            if (
                rel not in files
                and any(fnmatch.fnmatchcase(rel, p) for p in patterns)
                and kind_of(path) is None
            ):
                _unlink(path)
    return written


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError as err:
        raise os_error(path, err) from None


def _remove_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not empty: a file already renamed into it
        folder.rmdir()
