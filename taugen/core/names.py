"""Kubernetes name and label syntax (apimachinery validation), used on inputs and outputs.

The one home of these patterns (issue 17 item 5). Checks use `fullmatch`: with `match` and
`^…$`, Python's `$` also matches before a trailing newline, so `a\\n` passed as a name. The
`*_PATTERN` strings are for JSON Schemas and pydantic (whose Rust engine ends `$` at the end).
"""

from __future__ import annotations

import hashlib
import re

DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN = rf"{DNS1123_LABEL}(\.{DNS1123_LABEL})*"
LABEL_VALUE = r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
QUALIFIED_NAME = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_KEY = rf"({DNS1123_SUBDOMAIN}/)?{QUALIFIED_NAME}"  # lengths apart: label_key_error checks them

DNS1123_LABEL_PATTERN = f"^{DNS1123_LABEL}$"
DNS1123_SUBDOMAIN_PATTERN = f"^{DNS1123_SUBDOMAIN}$"
LABEL_VALUE_PATTERN = f"^{LABEL_VALUE}$"

_DNS1123_LABEL = re.compile(DNS1123_LABEL)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN)
_LABEL_VALUE = re.compile(LABEL_VALUE)
_QUALIFIED_NAME = re.compile(QUALIFIED_NAME)

LABEL_VALUE_MAX = 63
DNS1123_LABEL_MAX = 63
DNS1123_SUBDOMAIN_MAX = 253
QUALIFIED_NAME_MAX = 63


def label_value_error(value: str) -> str | None:
    """Why `value` is not a valid label value, or None."""
    if len(value) > LABEL_VALUE_MAX:
        return f"is {len(value)} characters long; label values are at most 63"
    if not _LABEL_VALUE.fullmatch(value):
        return (
            "must be empty or start and end with a letter or digit, with only letters, "
            "digits, '-', '_' and '.' between"
        )
    return None


def dns1123_label_error(value: str) -> str | None:
    if len(value) > DNS1123_LABEL_MAX:
        return f"is {len(value)} characters long; at most 63 are allowed"
    if not _DNS1123_LABEL.fullmatch(value):
        return "must be lower-case letters, digits and '-', starting and ending with a letter or digit"
    return None


def dns1123_subdomain_error(value: str) -> str | None:
    if len(value) > DNS1123_SUBDOMAIN_MAX:
        return f"is {len(value)} characters long; at most 253 are allowed"
    if not _DNS1123_SUBDOMAIN.fullmatch(value):
        return "must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"
    return None


def dns1035_label_error(value: str) -> str | None:
    """A Service's name (apimachinery IsDNS1035Label): a DNS label that starts with a letter."""
    if why := dns1123_label_error(value):
        return why
    if not value[0].isalpha():
        return "must start with a lower-case letter (a DNS-1035 label), then letters, digits and '-'"
    return None


def path_segment_error(value: str) -> str | None:
    """An RBAC object's name (apimachinery IsValidPathSegmentName): any text that can be one
    segment of a URL path."""
    if value in (".", ".."):
        return f"may not be {value!r}"
    if "/" in value or "%" in value:
        return "may not contain '/' or '%'"
    return None


def label_key_error(key: str) -> str | None:
    """Why `key` is not a valid label key ([prefix/]name), or None (apimachinery IsQualifiedName)."""
    parts = key.split("/")
    if len(parts) > 2:
        return "has more than one '/'; a label key is [prefix/]name"
    name = parts[-1]
    if len(parts) == 2 and (not parts[0] or dns1123_subdomain_error(parts[0])):
        return f"prefix {parts[0]!r} is not a DNS subdomain"
    if not name or len(name) > QUALIFIED_NAME_MAX or not _QUALIFIED_NAME.fullmatch(name):
        return f"name part {name!r} must be 1-63 letters, digits, '-', '_' or '.'"
    return None


PLATFORM_PREFIX = "taugrid-"  # taugen's own object names (R3: never a gpu-class)
CPU_CLASS = "default-cpu"  # the CPU-only flavor is PLATFORM_PREFIX + CPU_CLASS (R24)
RESERVED_GPU_CLASSES = frozenset({CPU_CLASS})


def gpu_class_name_error(value: str) -> str | None:
    """Why `value` cannot name a gpu-class whatever the rules say (R3, R24), or None."""
    if value.startswith(PLATFORM_PREFIX):
        return "is a platform identifier (taugrid-…), not a gpu-class"
    if value in RESERVED_GPU_CLASSES:
        return f"is reserved: its flavor {PLATFORM_PREFIX}{value} is the CPU-only flavor"
    return dns1123_label_error(value)


_NOT_IN_SUBDOMAIN = re.compile(r"[^a-z0-9.-]+")
_HYPHENS = re.compile(r"-{2,}")


def subdomain_name(text: str) -> str:
    """`text` as an object name (a DNS-1123 subdomain of at most 253 characters), R14-style.

    Kept as it is when already valid; otherwise lower-cased, every run of other characters
    made a `-`, empty or ragged dot-separated parts dropped, cut to fit, and followed by 8 hex
    digits of sha256(text): the same name in every build, distinct from a valid name's (which
    never carries the digest of another text) but for a 32-bit coincidence.
    """
    if dns1123_subdomain_error(text) is None:
        return text
    hyphenated = _HYPHENS.sub("-", _NOT_IN_SUBDOMAIN.sub("-", text.lower()))
    parts = (p.strip("-") for p in hyphenated.split("."))
    head = ".".join(p for p in parts if p)[: DNS1123_SUBDOMAIN_MAX - 9].rstrip("-.")
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{head}-{digest}" if head else digest


# G6: the output root's folders of generated Argo CD and Flux files. A `_` is in no DNS-1123
# label, so no cluster folder (a cluster name is one) can ever be named like them.
ARGOCD_FOLDER = "_argocd"
FLUX_FOLDER = "_flux"
GITOPS_FOLDERS = (ARGOCD_FOLDER, FLUX_FOLDER)


def output_folder_error(name: str) -> str | None:
    """Why `name` cannot be a folder taugen writes in the output root (a cluster's or G6's)."""
    return None if name in GITOPS_FOLDERS else dns1123_label_error(name)


def object_label_name(text: str) -> str:
    """`text` as a name that is also a label value (Argo CD and Flux label what an Application
    or Kustomization applies with its name): kept when a DNS-1123 label, else made one of at
    most 63 characters ending in 8 hex digits of sha256(text)."""
    if dns1123_label_error(text) is None:
        return text
    head = _HYPHENS.sub("-", re.sub(r"[^a-z0-9-]+", "-", text.lower())).strip("-")
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{head[: DNS1123_LABEL_MAX - 9].rstrip('-')}-{digest}" if head else digest
