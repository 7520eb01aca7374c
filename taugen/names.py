"""Kubernetes name and label syntax (apimachinery validation), used on inputs and outputs."""

from __future__ import annotations

import re

_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
DNS1123_LABEL_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
DNS1123_SUBDOMAIN_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
_DNS1123_LABEL = re.compile(DNS1123_LABEL_PATTERN)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_PATTERN)
_QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")

LABEL_VALUE_MAX = 63
DNS1123_LABEL_MAX = 63
DNS1123_SUBDOMAIN_MAX = 253


def label_value_error(value: str) -> str | None:
    """Why `value` is not a valid label value, or None."""
    if len(value) > LABEL_VALUE_MAX:
        return f"is {len(value)} characters long; label values are at most 63"
    if not _LABEL_VALUE.match(value):
        return (
            "must be empty or start and end with a letter or digit, with only letters, "
            "digits, '-', '_' and '.' between"
        )
    return None


def dns1123_label_error(value: str) -> str | None:
    if len(value) > DNS1123_LABEL_MAX:
        return f"is {len(value)} characters long; at most 63 are allowed"
    if not _DNS1123_LABEL.match(value):
        return "must be lower-case letters, digits and '-', starting and ending with a letter or digit"
    return None


def dns1123_subdomain_error(value: str) -> str | None:
    if len(value) > DNS1123_SUBDOMAIN_MAX:
        return f"is {len(value)} characters long; at most 253 are allowed"
    if not _DNS1123_SUBDOMAIN.match(value):
        return "must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"
    return None


def label_key_error(key: str) -> str | None:
    """Why `key` is not a valid label key ([prefix/]name), or None."""
    prefix, _, name = key.rpartition("/")
    if prefix and dns1123_subdomain_error(prefix):
        return f"prefix {prefix!r} is not a DNS subdomain"
    if not name or len(name) > 63 or not _QUALIFIED_NAME.match(name):
        return f"name part {name!r} must be 1-63 letters, digits, '-', '_' or '.'"
    return None
