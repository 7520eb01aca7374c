"""The schedulers, listed explicitly (STYLE.md: never looked up through importlib; pre-commit's
all_languages.py). A new scheduler adds its package and one line to `_LISTED`; its `name` is its
key, the value of `scheduler:` in taugen.yaml, and the project model's union takes its `model`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from taugen.models.entries import complete
from taugen.schedulers.kai import Kai
from taugen.schedulers.kueue import Kueue
from taugen.schedulers.protocol import Backend

_LISTED: tuple[Backend, ...] = (
    Kueue(),  # the default: a cluster entry without `scheduler:` is Kueue's
    Kai(),
)
_BACKENDS: dict[str, Backend] = {backend.name: backend for backend in _LISTED}
complete([(backend.name, backend.model) for backend in _LISTED])


def scheduler_of(key: str) -> Backend:
    """The scheduler of a cluster: `scheduler_of(cluster.scheduler)`; the project model admits no
    other key than a listed scheduler's name."""
    return _BACKENDS[key]


def schedulers() -> tuple[Backend, ...]:
    """Every scheduler, in the listed order (for what reads objects of any scheduler: diff risks)."""
    return tuple(_BACKENDS.values())


@contextmanager
def registered(backend: Backend) -> Iterator[Backend]:
    """Test hook: `backend` answers for its name inside the block, in place of the listed one of that
    name or after the listed ones, and the project model takes its entry; the listed ones again
    after it (tests/unit/test_fake_scheduler.py builds a tree with a fake scheduler this way)."""
    listed = dict(_BACKENDS)
    _BACKENDS[backend.name] = backend
    complete([(b.name, b.model) for b in _BACKENDS.values()])
    try:
        yield backend
    finally:
        _BACKENDS.clear()
        _BACKENDS.update(listed)
        complete([(b.name, b.model) for b in _LISTED])
