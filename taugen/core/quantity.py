"""Kubernetes resource quantities: parse, compare and print in canonical form.

No well-kept Python library prints the API server's canonical form (the `kubernetes`
client only parses), so this follows apimachinery's `ParseQuantity` and
`Quantity.CanonicalizeBytes` (issue 30):

- parsing keeps the exact value, rounded up (away from zero) to a whole number of nanos when
  it is finer, whatever the suffix (`.000000000001Ki` is 1.024n, so 2n);
- the suffix's family is kept: BinarySI (Ki…Ei), DecimalSI (n…E) or DecimalExponent (e3);
- BinarySI below 1Ki in magnitude or with a fraction prints as DecimalSI (`0.5Ki` is `512`);
- the exponent printed is the largest multiple of 3 (of 10 for BinarySI, as Ki…Ei) that keeps
  the mantissa whole: `1000m` is `1`, `100000` is `100k`, `1.5Gi` is `1536Mi`.

Two deliberate differences: a value beyond 2^63-1 in magnitude is refused (apimachinery caps a
BinarySI one and keeps a decimal one), and the form printed is always the canonical one, where
Go's `String()` returns a parsed string as typed when its fast path takes it for canonical
(`+5`, `01`, `1.500` come back so; here `5`, `1`, `1500m`, which Go also prints for them once
the value is recomputed). As in Go, a whole BinarySI value that is not a multiple of 1Ki prints
without a suffix (`1.953125Ki` is `2000`), which then reads back as DecimalSI (`2k`).
Without the canonical form Argo CD reports a permanent diff (SPEC §3).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

Format = Literal["DecimalSI", "BinarySI", "DecimalExponent"]

_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_SUFFIX_OF_EXP = {exp: suffix for suffix, exp in _DECIMAL.items()}
_SUFFIX_OF_POW = {pow_: suffix for suffix, pow_ in _BINARY.items()}
_PATTERN = re.compile(
    r"(?P<num>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
    r"(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?"
)
_NANO = Fraction(1, 10**9)
# apimachinery (resource.Quantity): "no quantity may represent a number greater than 2^63-1 in
# magnitude"; Kueue reads nvidia.com/gpu with Quantity.Value(), an int64 (issue 17 item 7).
MAX_MAGNITUDE = 2**63 - 1
_MAX_LENGTH = 64  # far above any real quantity; bounds the digits Fraction is asked to parse


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity."""


@dataclass(frozen=True, order=True)
class Quantity:
    value: Fraction
    format: Format = "DecimalSI"

    @classmethod
    def parse(cls, text: str | int) -> Quantity:
        if type(text) is str:  # the usual case, straight to the cache (issue 36: 300,000 at 100k)
            return _parse(text)
        if isinstance(text, bool):  # before the cache: True == 1 there
            raise QuantityError(f"{text!r} is a boolean, not a quantity")
        if not isinstance(text, str | int):
            raise QuantityError(f"{text!r} is not a Kubernetes quantity (e.g. 8, 500m, 64Gi)")
        return _parse(text)

    def is_integer(self) -> bool:
        return self.value.denominator == 1

    def canonical(self) -> str:
        """The string the API server prints for this quantity."""
        return _canonical(self.value, self.format)

    def __str__(self) -> str:
        return self.canonical()


# A fleet repeats a handful of values (8 GPUs, 1800Gi) across 100,000 nodes: parse each once
# (issue 6: Fraction arithmetic was a tenth of a build). Quantity is immutable, so sharing is safe.
@lru_cache(maxsize=4096)
def _parse(text: str | int) -> Quantity:
    quantity = _parse_unbounded(text)
    if abs(quantity.value) > MAX_MAGNITUDE:
        raise QuantityError(f"{_short(text)} is beyond 2^63-1, the largest Kubernetes quantity")
    return quantity


def _short(text: str | int) -> str:
    shown = repr(text) if isinstance(text, str) else str(text)
    return shown if len(shown) <= 40 else f"{shown[:40]}… ({len(shown)} characters)"


def _parse_unbounded(text: str | int) -> Quantity:
    if isinstance(text, int):
        if text.bit_length() > 64:  # str(int) of a huge number is slow; any such int is too big
            raise QuantityError(f"an integer of {text.bit_length()} bits is beyond 2^63-1")
        return Quantity(Fraction(text), "DecimalSI")
    if len(text) > _MAX_LENGTH:
        raise QuantityError(f"{_short(text)} is too long for a Kubernetes quantity")
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise QuantityError(f"{text!r} is not a Kubernetes quantity (e.g. 8, 500m, 64Gi)")
    number = Fraction(match["num"])
    suffix = match["suffix"] or ""
    if suffix in _BINARY:
        return Quantity(_round_up_nano(number * 1024 ** _BINARY[suffix]), "BinarySI")
    if len(suffix) > 1 and suffix[0] in ("e", "E"):  # an exponent; a bare E is exa
        return Quantity(_scaled(text, number, int(suffix[1:])), "DecimalExponent")
    return Quantity(_round_up_nano(number * Fraction(10) ** _DECIMAL[suffix]), "DecimalSI")


def _scaled(text: str, number: Fraction, exponent: int) -> Fraction:
    """number * 10^exponent, nano-rounded, without computing 10^exponent for a huge exponent:
    the number has at most _MAX_LENGTH digits, so past these bounds it is beyond 2^63-1, or
    below 1e-10 in magnitude (which rounds up to 1n)."""
    if number == 0:
        return number
    if exponent > _MAX_LENGTH + 19:
        raise QuantityError(f"{_short(text)} is beyond 2^63-1, the largest Kubernetes quantity")
    if exponent < -(_MAX_LENGTH + 10):
        return _NANO if number > 0 else -_NANO
    return _round_up_nano(number * Fraction(10) ** exponent)


@lru_cache(maxsize=4096)
def _canonical(value: Fraction, fmt: Format) -> str:
    value = _round_up_nano(value)  # a parsed value is already; one computed from them, too
    if value == 0:
        return "0"
    if fmt == "BinarySI" and (abs(value) < 1024 or value.denominator != 1):
        fmt = "DecimalSI"
    if fmt == "BinarySI":
        return _base1024(int(value))
    return _base10(value, fmt)


def _round_up_nano(value: Fraction) -> Fraction:
    # apimachinery rounds precision below 1n up (away from zero) when parsing.
    scaled = value / _NANO
    if scaled.denominator == 1:
        return value
    return Fraction(math.ceil(scaled) if value > 0 else math.floor(scaled)) * _NANO


def _base1024(value: int) -> str:
    mantissa, power = value, 0
    while power < 6 and mantissa % 1024 == 0:
        mantissa //= 1024
        power += 1
    return f"{mantissa}{_SUFFIX_OF_POW.get(power, '')}"


def _base10(value: Fraction, fmt: Format) -> str:
    mantissa, exponent = value, 0
    while mantissa.denominator != 1:
        mantissa *= 1000
        exponent -= 3
    whole = int(mantissa)
    largest = 18 if fmt == "DecimalSI" else math.inf  # E, for a sum beyond 2^63-1 too
    while whole % 1000 == 0 and exponent < largest:
        whole //= 1000
        exponent += 3
    if fmt == "DecimalExponent":
        return f"{whole}e{exponent}" if exponent else str(whole)
    return f"{whole}{_SUFFIX_OF_EXP[exponent]}"  # nano-rounded: from n (-9) to E (18)


def canonical(text: str | int) -> str:
    return Quantity.parse(text).canonical()
