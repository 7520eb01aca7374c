"""Shared model configuration and field types."""

from __future__ import annotations

import posixpath
import re
from datetime import datetime, timedelta
from typing import Annotated, Any, Final

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from taugen.core.errors import Rule
from taugen.core.names import (
    DNS1123_LABEL_PATTERN,
    DNS1123_SUBDOMAIN_PATTERN,
    dns1123_label_error,
    dns1123_subdomain_error,
)
from taugen.core.quantity import Quantity, QuantityError
from taugen.core.timestamps import rfc3339_error, utc_error

API_VERSION: Final = "taugen.tau.azure.com/v1alpha1"


class StrictModel(BaseModel):
    """Unknown keys are errors (SPEC §1); values are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class LooseModel(BaseModel):
    """For objects written by other tools (kubectl output): only the fields we read."""

    model_config = ConfigDict(extra="ignore", frozen=True)


def invalid(message: str, hint: str, rule: Rule | None = None) -> PydanticCustomError:
    """A validation error that carries its own hint (and rule id, when not the file's)."""
    ctx = {"message": message, "hint": hint} | ({"rule": rule} if rule else {})
    return PydanticCustomError("taugen_value", "{message}", ctx)


def name_limit(limit: int, what: str) -> Any:
    """SPEC §3: Kueue's CRDs cap some names; exceeding one is an error naming the limit."""

    def validate(value: Any) -> Any:
        if isinstance(value, str) and len(value) > limit:
            raise invalid(
                f"{value!r} is {len(value)} characters; Kueue limits {what} names to {limit}",
                f"shorten it to at most {limit} characters",
                rule="limits",
            )
        return value

    return BeforeValidator(validate)


QUANTITY_HINT = 'write a Kubernetes quantity as a string, e.g. "8", "500m" or 1800Gi'


def _quantity(value: Any) -> Quantity:
    if isinstance(value, Quantity):
        return value
    if type(value) is not str and (
        isinstance(value, float) or not isinstance(value, str | int) or isinstance(value, bool)
    ):
        raise invalid(f"{value!r} is not a Kubernetes quantity", QUANTITY_HINT)
    try:
        return Quantity.parse(value)
    except QuantityError as err:
        raise invalid(str(err), QUANTITY_HINT) from None


QuantityField = Annotated[
    Quantity,
    BeforeValidator(_quantity),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "Kubernetes quantity"}
    ),
]


def _checked(check: Any, hint: str) -> Any:
    def validate(value: Any) -> Any:
        if isinstance(value, str) and (why := check(value)):
            raise invalid(f"{value!r} {why}", hint)
        return value

    return BeforeValidator(validate)


def _path_error(value: str) -> str | None:
    """A file name the operating system cannot take (a NUL byte) or a reviewer cannot read (a
    newline, a tab, a bidi override: issue 32)."""
    bad = next((c for c in value if not c.isprintable()), None)
    return None if bad is None else f"holds the control character {bad!r}"


def _outside_error(value: str) -> str | None:
    """Issue 32: a path in taugen.yaml stays inside the project (the folder of taugen.yaml); an
    absolute one, or one whose `..` climbs out, would read or replace another project's files."""
    posix = value.replace("\\", "/")
    if posix.startswith("/") or re.match(r"[A-Za-z]:", posix):
        return "is absolute: taugen reads and writes only inside the project"
    if posixpath.normpath(posix).split("/")[0] == "..":
        return "leads outside the project (the folder of taugen.yaml)"
    return None


# A path in taugen.yaml, relative to it and inside the project: refused at its position, never a
# crash in os.stat
ProjectPath = Annotated[
    str,
    Field(min_length=1),
    _checked(_path_error, "write the path as plain text, relative to taugen.yaml"),
    _checked(_outside_error, "write a path relative to taugen.yaml that stays in its folder"),
]
DNSLabel = Annotated[
    str,
    _checked(dns1123_label_error, "use a DNS-1123 label such as team-llm"),
    WithJsonSchema({"type": "string", "pattern": DNS1123_LABEL_PATTERN, "maxLength": 63}),
]
DNSSubdomain = Annotated[
    str,
    _checked(dns1123_subdomain_error, "use a DNS-1123 name such as aks-gpu-0001"),
    WithJsonSchema({"type": "string", "pattern": DNS1123_SUBDOMAIN_PATTERN, "maxLength": 253}),
]

_DURATION = re.compile(r"(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m)?(?:(?P<s>\d+)s)?")


def parse_duration(value: Any) -> timedelta:
    """A Go-style duration such as 168h or 90m30s (what Kubernetes tools write)."""
    if isinstance(value, timedelta):
        return value
    match = _DURATION.fullmatch(value) if isinstance(value, str) and value else None
    if match is None or not any(match.groupdict().values()):
        raise invalid(f"{value!r} is not a duration", "write hours, minutes, seconds: 168h, 90m, 1h30m")
    parts = {k: int(v or 0) for k, v in match.groupdict().items()}
    return timedelta(hours=parts["h"], minutes=parts["m"], seconds=parts["s"])


def format_duration(value: timedelta) -> str:
    """168h, 1h30m, 45s: the form the project file uses."""
    minutes, seconds = divmod(int(value.total_seconds()), 60)
    hours, minutes = divmod(minutes, 60)
    text = "".join(f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (seconds, "s")) if n)
    return text or "0s"


Duration = Annotated[
    timedelta,
    BeforeValidator(parse_duration),
    PlainSerializer(format_duration, return_type=str),
    WithJsonSchema({"type": "string", "pattern": "^([0-9]+h)?([0-9]+m)?([0-9]+s)?$"}),
]

TIME_HINT = 'write an RFC 3339 time in quotes, e.g. "2026-11-28T12:00:00Z"'


def _rfc3339(value: Any) -> Any:
    """R52: a time a user writes is RFC 3339 (pydantic alone takes unix seconds, `12:00Z`, a
    space for the `T`) with a year of at least 1. A YAML timestamp the loader has read already
    (an unquoted time) is a datetime: its year is at least 1, its zone is pydantic's to check."""
    if isinstance(value, datetime):
        return value
    if (why := rfc3339_error(value)) is not None:
        raise invalid(f"{value!r} {why}", TIME_HINT, rule="R52")
    return value


def _in_utc(value: datetime) -> datetime:
    if why := utc_error(value):
        raise invalid(f"{value.isoformat()} {why}", TIME_HINT, rule="R52")
    return value


Timestamp = Annotated[AwareDatetime, BeforeValidator(_rfc3339), AfterValidator(_in_utc)]


class Metadata(StrictModel):
    name: DNSSubdomain
