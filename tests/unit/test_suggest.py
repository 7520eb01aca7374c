"""Issue 21: one did-you-mean for every name a user types (keys, profiles, nodes, vmSizes,
gpu-classes), and no guess where nothing is near."""

from __future__ import annotations

import pytest

from taugen.context.classes import known_classes, profile_class_warnings, unknown_class_hint
from taugen.core.suggest import CLOSE, VERY_CLOSE, closest
from taugen.load.profiles import BUILTIN_PROFILES, load_profiles
from taugen.resolve.rules import RuleSet

BUILTIN_CLASSES = RuleSet([]).gpu_classes()


def test_the_built_in_table_gives_these_classes() -> None:
    assert sorted(BUILTIN_CLASSES) == ["a100-40gb", "a100-80gb", "h100-80gb", "h200-141gb"]
    assert known_classes([RuleSet([]), RuleSet([])]) == BUILTIN_CLASSES


@pytest.mark.parametrize(
    ("word", "guess"),
    [
        ("h200-141g", "h200-141gb"),
        ("H200-141GB", "h200-141gb"),  # ASCII case does not count
        ("h100-80g", "h100-80gb"),
        ("h200-140gb", "h200-141gb"),
        ("gb200-186gb", None),  # other hardware, not a typo of one of these
        ("h100-94gb", None),
        ("h200", None),
    ],
)
def test_a_gpu_class_guess_is_a_near_miss_only(word: str, guess: str | None) -> None:
    assert closest(word, BUILTIN_CLASSES, CLOSE) == guess


def test_the_guess_does_not_depend_on_the_order_of_the_known_names() -> None:
    names = ["a100-40gb", "a100-80gb"]
    assert closest("a100-60gb", names, CLOSE) == closest("a100-60gb", names[::-1], CLOSE) == "a100-80gb"


def test_vm_sizes_need_a_very_close_match() -> None:
    sizes = ["Standard_ND96isr_H100_v5", "Standard_ND96isr_H200_v5"]
    assert closest("Standard_ND96isr_H10_v5", sizes, VERY_CLOSE) == "Standard_ND96isr_H100_v5"
    assert closest("Standard_NV36ads_A10_v5", sizes, VERY_CLOSE) is None


def test_the_hint_names_the_classes_when_nothing_is_near() -> None:
    assert unknown_class_hint("h200-141g", BUILTIN_CLASSES) == "did you mean 'h200-141gb'?"
    assert unknown_class_hint("b200-192gb", BUILTIN_CLASSES) == (
        "the rules give a100-40gb, a100-80gb, h100-80gb, h200-141gb; or add a rule that gives b200-192gb"
    )


def test_the_built_in_profiles_draw_no_warning_from_the_built_in_rules() -> None:
    """gb200-nvl72 names gb200-186gb, which no built-in rule gives: not ready, but no typo."""
    profiles = load_profiles([BUILTIN_PROFILES])
    assert "gb200-186gb" in {p.profile.policy.gpu_class for p in profiles}
    assert profile_class_warnings(profiles, BUILTIN_CLASSES) == []
