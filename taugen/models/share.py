"""A guaranteed share of a gpu-class (SPEC §10, T4): a GPU count, or a percentage of the class quota."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, StrictInt, WithJsonSchema

from taugen.core.names import gpu_class_name_error
from taugen.core.quantity import MAX_MAGNITUDE
from taugen.models.base import invalid

# at most 15 decimals (a double's precision): a 4,400-digit one passed int()'s limit (issue 32)
PERCENT_PATTERN = r"^(100(\.0{1,15})?|[0-9]{1,2}(\.[0-9]{1,15})?)%$"
_PERCENT = re.compile(PERCENT_PATTERN)
SHARE_HINT = 'write a GPU count such as 64, or a share of the class quota such as "50%" (0% to 100%)'


def _share(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise invalid(f"{value!r} is neither a GPU count nor a percentage", SHARE_HINT, rule="T4")
    if isinstance(value, int) and not 0 <= value <= MAX_MAGNITUDE:
        raise invalid(f"{value} is not a GPU count (0 or more)", SHARE_HINT, rule="T4")
    if isinstance(value, str) and not _PERCENT.fullmatch(value):
        raise invalid(f"{value!r} is neither a GPU count nor a percentage", SHARE_HINT, rule="T4")
    return value


Share = Annotated[
    StrictInt | str,
    BeforeValidator(_share),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "pattern": PERCENT_PATTERN},
            ],
            "description": 'GPUs: a count, or a percentage of the class quota such as "50%"',
        }
    ),
]


def _class_key(value: Any) -> Any:
    if isinstance(value, str) and (why := gpu_class_name_error(value)):
        raise invalid(f"gpu-class {value!r} {why}", "name a gpu-class of the cluster, e.g. h200-141gb")
    return value


ClassKey = Annotated[str, BeforeValidator(_class_key)]


def share_value(share: int | str) -> Fraction | None:
    """The percentage of a share as a fraction of 1, or None when the share is a count."""
    if isinstance(share, int):
        return None
    return Fraction(share.removesuffix("%")) / 100
