"""Fill a template's placeholders in one pass (issue 32).

One `str.replace` per placeholder searched each value filled before it for the next key: a value
holding `{{data}}` (an escaped label in a report) had the page's raw data pasted into it. Here
every placeholder is found in the template alone, and what is filled in is never searched again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each key of `values` replaced by its value, in one pass over it."""
    keys = sorted(values, key=len, reverse=True)  # the longer key first where one holds another
    pattern = re.compile("|".join(re.escape(k) for k in keys))
    return pattern.sub(lambda match: values[match[0]], template)
