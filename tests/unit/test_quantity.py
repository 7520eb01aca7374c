"""SPEC §3: quantities are written in the API server's canonical form (apimachinery)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from taugen.core.quantity import Quantity, QuantityError, canonical
from taugen.load.inventory import load_inventory
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


# Issue 30: inputs and the strings apimachinery prints for them (pkg/api/resource quantity_test.go:
# TestQuantityParseEmit, TestQuantityString's alternates, TestQuantityParse's values; and the
# Kubernetes docs' examples), each checked against resource.ParseQuantity + CanonicalizeBytes.
APIMACHINERY = [
    ("1Ki", "1Ki"),
    ("1Mi", "1Mi"),
    ("1Gi", "1Gi"),
    ("1024Mi", "1Gi"),
    ("1000M", "1G"),
    (".001Ki", "1024m"),
    (".000001Ki", "1024u"),
    (".000000001Ki", "1024n"),
    (".000000000001Ki", "2n"),  # 1.024n rounds up to 2n (it printed 1024e-12)
    ("307200Ki", "300Mi"),
    ("1025024Mi", "1001Gi"),
    ("1024Gi", "1Ti"),
    ("5000m", "5"),
    ("0.5", "500m"),
    ("0.001T", "1G"),
    ("1000u", "1m"),
    ("1.08", "1080m"),
    ("1080000000n", "1080m"),
    (".001e12", "1e9"),
    ("0.001e0", "1e-3"),
    ("1000e-12", "1e-9"),
    ("00", "0"),
    ("3.001n", "4n"),
    ("1.1E-9", "2e-9"),
    ("0.0000000001", "1n"),
    ("0.0000000005", "1n"),
    ("0.00000000050", "1n"),
    ("0.5e-9", "1e-9"),
    ("0.9n", "1n"),
    ("0.00000012345", "124n"),
    ("0.00000012354", "124n"),
    ("100.035Ki", "102435840m"),
    ("0.5Mi", "512Ki"),
    ("0.05Gi", "53687091200m"),
    ("0.025Ti", "27487790694400m"),
    (".001", "1m"),
    (".0001k", "100m"),
    ("1.", "1"),
    ("1.G", "1G"),
    ("50k", "50k"),
    ("40T", "40T"),
    ("300T", "300T"),
    ("100.035k", "100035"),
    ("0.0005k", "500m"),
    ("10.035M", "10035k"),
    ("1.2e3", "1200"),
    ("1.3E+6", "1300e3"),
    ("1.40e9", "1400e6"),
    ("1.53E12", "1530e9"),
    ("1.6e15", "1600e12"),
    ("1.7E18", "1700e15"),
    ("7.123456M", "7123456"),
    ("6.987654321G", "6987654321"),
    ("5.444T", "5444G"),
    ("40.1T", "40100G"),
    ("300.2T", "300200G"),
    ("2.5P", "2500T"),
    ("1.01E", "1010P"),
    ("0.5e-1", "50e-3"),
    ("0.5e-2", "5e-3"),
    ("8.1k", "8100"),
    ("9.01", "9010m"),
    ("1.953125Ki", "2000"),  # BinarySI, whole and above 1Ki, not a multiple of it: no suffix
    ("1000Ki", "1000Ki"),
    ("1.0000000001Ki", "1024000000103n"),
    ("0.1m", "100u"),
    ("1e-20", "1e-9"),  # far below 1n: rounds up to it
    ("0e99", "0"),
    # the Kubernetes docs: CPU and memory
    ("1.5", "1500m"),
    ("1.5Gi", "1536Mi"),
    ("0.1", "100m"),
    ("128974848", "128974848"),
    ("129e6", "129e6"),
    ("129M", "129M"),
    ("128974848000m", "128974848"),
    ("123Mi", "123Mi"),
]


@pytest.mark.parametrize(("text", "expected"), APIMACHINERY)
def test_canonical_form_is_what_apimachinery_prints(text: str, expected: str) -> None:
    assert canonical(text) == expected
    negative = "0" if expected == "0" else f"-{expected}"
    assert canonical(f"-{text}") == negative  # the sign is kept, rounding is away from zero
    assert canonical(f"+{text}") == expected
    assert Quantity.parse(expected).value == Quantity.parse(text).value


def test_a_canonical_string_prints_as_itself_but_a_binary_one_without_suffix() -> None:
    """Printing again what was printed gives it back, as in Go, but for one case Go has too: a
    whole BinarySI value that is not a multiple of 1Ki prints without a suffix, and read back
    that is a DecimalSI number (2000 is then 2k)."""
    assert [text for text, printed in APIMACHINERY if canonical(printed) != printed] == ["1.953125Ki"]
    assert (canonical("1.953125Ki"), canonical("2000")) == ("2000", "2k")


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


def test_a_computed_value_prints_as_the_api_server_would_store_it() -> None:
    """A sum or a difference is a whole number of nanos and may pass 2^63-1 (a fleet's total):
    it prints nano-rounded (like a parsed one) and with at most the E suffix."""
    assert Quantity(Fraction(10**21)).canonical() == "1000E"
    assert Quantity(Fraction(10**21), "DecimalExponent").canonical() == "1e21"
    assert Quantity(Fraction(1, 10**12)).canonical() == "1n"
    assert Quantity(Fraction(-3, 10**12), "BinarySI").canonical() == "-1n"
    assert Quantity(Fraction(3 * 2**60), "BinarySI").canonical() == "3Ei"
