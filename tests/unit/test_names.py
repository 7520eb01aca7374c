"""Kubernetes name syntax (issue 17 item 5): a whole-string match, so no trailing newline."""

from __future__ import annotations

import pytest

from taugen.core.names import dns1123_label_error, dns1123_subdomain_error, label_key_error, label_value_error
from taugen.models.base import parse_duration

LABEL = "must be lower-case letters, digits and '-', starting and ending with a letter or digit"
SUBDOMAIN = "must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"
QUALIFIED = "must be 1-63 letters, digits, '-', '_' or '.'"
VALUE = (
    "must be empty or start and end with a letter or digit, with only letters, "
    "digits, '-', '_' and '.' between"
)


@pytest.mark.parametrize(
    ("check", "value", "why"),
    [
        (dns1123_label_error, "team-a\n", LABEL),
        (dns1123_label_error, "team-a", None),
        (dns1123_subdomain_error, "aks-gpu-0001\n", SUBDOMAIN),
        (dns1123_subdomain_error, "aks.gpu-0001", None),
        (label_value_error, "ib-a\n", VALUE),
        (label_value_error, "", None),
        (label_key_error, "example.com/pool\n", f"name part 'pool\\n' {QUALIFIED}"),
        (label_key_error, "example.com\n/pool", "prefix 'example.com\\n' is not a DNS subdomain"),
        (label_key_error, "/x", "prefix '' is not a DNS subdomain"),
        (label_key_error, "a/b/c", "has more than one '/'; a label key is [prefix/]name"),
        (label_key_error, "x", None),
        (label_key_error, "runai/queue", None),
    ],
)
def test_names_match_the_whole_string(check: object, value: str, why: str | None) -> None:
    assert callable(check)
    assert check(value) == why


def test_a_duration_with_a_trailing_newline_is_refused() -> None:
    with pytest.raises(ValueError, match="is not a duration"):
        parse_duration("168h\n")
    assert parse_duration("168h").total_seconds() == 168 * 3600
