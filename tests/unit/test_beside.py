"""Issue 36: a large text is scanned by a forked child while yaml-rs parses it (native.load_all
over core/forked.beside). The parse is kept only when the child's scan clears it, so every text
reads as the one-process path reads it: the same data, or None (the old loader then reports)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

import taugen.core.forked
import taugen.load.native
from taugen.core.forked import beside
from taugen.load import native

TEXTS = [
    "a: 08\nb: yes\nc: ~\nd: 0o17\ne: 0x1F\nf: 1e3\ng: '08'\n",  # plain: yaml-rs's data is kept
    "---\n- 1\n- 2\n",
    "a: 1\n---\n---\nb: [2]\n",
    "nodes:\n  - name: n1\n    allocatable: {cpu: '8', nvidia.com/gpu: '4'}\n",
    "at: 2026-11-29T10:00:00Z\n",  # a plain timestamp: steps aside for the inputs only
    "a: =\n",  # ruamel's `value` tag: inputs only
    "a: !custom x\n",  # yaml-rs drops the tag: the scan must refuse its parse
    "a: 'x'\nb: \\x41\n",
    'a: "\\x41"\n',
    "a: _1\n",
    "a: 0X1F\n",
    "a: |\n",
    "- [:x, y]\n",
    "a: 1\na: 2\n",  # yaml-rs refuses it: None, with or without a clearing scan
    "a: [1\n",
]


def _forking(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: True)


def _serial(text: str, timestamps: bool, monkeypatch: pytest.MonkeyPatch) -> list[Any] | None:
    with monkeypatch.context() as patch:
        patch.setattr(taugen.load.native, "BESIDE_FROM", len(text) + 1)
        return native.load_all(text, timestamps=timestamps)


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def spy(here: Callable[[], Any], there: Callable[[], Any]) -> tuple[Any, Any]:
        calls.append(1)
        return beside(here, there)

    monkeypatch.setattr(taugen.load.native, "beside", spy)
    return calls


@pytest.mark.parametrize("timestamps", [True, False])
@pytest.mark.parametrize("text", TEXTS)
def test_scanned_beside_the_parse_reads_as_one_process(
    text: str, timestamps: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    _forking(monkeypatch)
    expected = _serial(text, timestamps, monkeypatch)
    monkeypatch.setattr(taugen.load.native, "BESIDE_FROM", 0)
    calls = _counted(monkeypatch)
    assert native.load_all(text, timestamps=timestamps) == expected
    assert calls == [1]  # the child's scan decided


def test_the_verdicts_are_the_ones_expected(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above would pass if both paths said None: here some texts are kept."""
    kept = [t for t in TEXTS if _serial(t, True, monkeypatch) is not None]
    assert kept == TEXTS[:4]
    assert _serial(TEXTS[3], True, monkeypatch) == [
        {"nodes": [{"name": "n1", "allocatable": {"cpu": "8", "nvidia.com/gpu": "4"}}]}
    ]


def test_an_alias_is_scanned_before_any_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """yaml-rs expands an alias into a copy: a text with one is never parsed before the scan."""
    _forking(monkeypatch)
    monkeypatch.setattr(taugen.load.native, "BESIDE_FROM", 0)
    calls = _counted(monkeypatch)
    assert native.load_all("a: &x [1]\nb: *x\n", timestamps=True) is None
    assert calls == []


def test_without_the_childs_verdict_the_text_is_scanned_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taugen.load.native, "BESIDE_FROM", 0)
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: False)
    for text in TEXTS:
        assert native.load_all(text, timestamps=True) == _serial(text, True, monkeypatch)


def test_both_run_and_the_child_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)
    here, there = beside(os.getpid, os.getpid)
    assert here == os.getpid()
    assert there is not None and there != here


def test_a_child_that_fails_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)
    parent = os.getpid()

    def there() -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child's part")
        return 1

    assert beside(lambda: "here", there) == ("here", None)
    assert beside(lambda: "here", lambda: lambda: 1) == ("here", None)  # not picklable


def test_an_error_here_is_raised_and_the_child_is_reaped(monkeypatch: pytest.MonkeyPatch) -> None:
    _forking(monkeypatch)

    def here() -> int:
        raise ZeroDivisionError("here")

    with pytest.raises(ZeroDivisionError):
        beside(here, lambda: 1)
    with pytest.raises(ChildProcessError):  # no child is left
        os.waitpid(-1, os.WNOHANG)


def test_without_a_fork_only_here_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taugen.core.forked, "forkable", lambda: False)
    calls: list[str] = []
    assert beside(lambda: "here", lambda: calls.append("there")) == ("here", None)
    assert calls == []
