"""SPEC §3: quantities are written in the API server's canonical form (apimachinery)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from taugen.load.inventory import load_inventory
from taugen.quantity import Quantity, QuantityError, canonical
from tests.support.helpers import gpu_node, inventory, write_yaml


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (100000, "100k"),  # §3's own example: the R25 cpu quota
        ("100000", "100k"),
        ("100Ti", "100Ti"),
        ("1000", "1k"),
        ("1500", "1500"),  # 1.5k has no whole mantissa
        ("0.1", "100m"),
        ("1000m", "1"),
        ("23800m", "23800m"),
        ("0", "0"),
        ("0Gi", "0"),
        ("1024Mi", "1Gi"),
        ("1536Mi", "1536Mi"),
        ("0.5Gi", "512Mi"),
        ("0.5Ki", "512"),  # BinarySI below 1Ki falls back to DecimalSI
        ("1.5Ki", "1536"),
        ("1e3", "1e3"),  # DecimalExponent keeps its family
        ("12E6", "12e6"),
        ("2E", "2E"),  # exa, not an exponent
        ("1000P", "1E"),
        ("1500P", "1500P"),
        ("1.0000000001", "1000000001n"),  # precision below 1n rounds up
        ("-1", "-1"),
    ],
)
def test_canonical_form_matches_the_api_server(text: str | int, expected: str) -> None:
    """§3: the string the API server prints, so Argo CD shows no permanent diff."""
    assert canonical(text) == expected


@pytest.mark.parametrize("text", ["", "8 GPUs", "1.2.3", "1Kb", "0x10", "1e9999", "--1"])
def test_parse_rejects_what_is_not_a_quantity(text: str) -> None:
    with pytest.raises(QuantityError):
        Quantity.parse(text)


def test_parse_keeps_exact_value_and_orders_numerically() -> None:
    """Quantities compare by value, whatever suffix family they were written in."""
    assert Quantity.parse("1536Mi").value == Fraction(1536 * 1024**2)
    assert Quantity.parse("1Gi") > Quantity.parse("1G")
    assert Quantity.parse("500m").value == Fraction(1, 2)


def test_inventory_accepts_every_valid_quantity_suffix(tmp_path: Path) -> None:
    """§1.2/§3: allocatable is read as Kubernetes quantities; 1E (exa) is one."""
    node = gpu_node("h-0")
    node["allocatable"].update({"ephemeral-storage": "1E", "hugepages-1Gi": "0", "example.com/x": "2k"})
    path = write_yaml(tmp_path / "inventory.yaml", inventory([node]))
    (facts,) = load_inventory(path).nodes
    assert {k: str(v) for k, v in facts.allocatable.items()} == {
        "cpu": "96",
        "ephemeral-storage": "1E",
        "example.com/x": "2k",
        "hugepages-1Gi": "0",
        "memory": "1800Gi",
        "nvidia.com/gpu": "8",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9223372036854775808", "'9223372036854775808' is beyond 2^63-1, the largest Kubernetes quantity"),
        (2**63, "9223372036854775808 is beyond 2^63-1, the largest Kubernetes quantity"),
        (-(2**63), "-9223372036854775808 is beyond 2^63-1, the largest Kubernetes quantity"),
        ("10E", "'10E' is beyond 2^63-1, the largest Kubernetes quantity"),
        ("8Ei", "'8Ei' is beyond 2^63-1, the largest Kubernetes quantity"),
        (10**400, "an integer of 1329 bits is beyond 2^63-1"),
        ("9" * 65, f"'{'9' * 39}… (67 characters) is too long for a Kubernetes quantity"),
    ],
)
def test_a_quantity_beyond_int64_is_refused(text: str | int, message: str) -> None:
    """Issue 17 item 7: apimachinery's largest quantity is 2^63-1 in magnitude."""
    with pytest.raises(QuantityError) as info:
        Quantity.parse(text)
    assert str(info.value) == message


def test_the_largest_quantity_is_kept() -> None:
    assert Quantity.parse("9223372036854775807").canonical() == "9223372036854775807"
    assert Quantity.parse(2**63 - 1).value == 2**63 - 1
