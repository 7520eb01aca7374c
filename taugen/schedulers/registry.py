"""The schedulers, listed explicitly under their closed key (STYLE.md: never looked up through
importlib; pre-commit's all_languages.py). A new scheduler adds its package and one line here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from taugen.models.project import Scheduler
from taugen.schedulers.kai import Kai
from taugen.schedulers.kueue import Kueue
from taugen.schedulers.protocol import Backend

_BACKENDS: dict[Scheduler, Backend] = {
    Scheduler.KUEUE: Kueue(),
    Scheduler.KAI: Kai(),
}


def scheduler_of(key: Scheduler) -> Backend:
    """The scheduler of a cluster: `scheduler_of(cluster.scheduler)`."""
    return _BACKENDS[key]


def schedulers() -> tuple[Backend, ...]:
    """Every scheduler, in the key's order (for what reads objects of any scheduler: diff risks)."""
    return tuple(_BACKENDS[key] for key in Scheduler)


@contextmanager
def registered(key: Scheduler, backend: Backend) -> Iterator[Backend]:
    """Test hook: `backend` answers for `key` inside the block, the listed one again after it
    (tests/unit/test_fake_scheduler.py builds a tree with a fake scheduler this way)."""
    listed = _BACKENDS[key]
    _BACKENDS[key] = backend
    try:
        yield backend
    finally:
        _BACKENDS[key] = listed
