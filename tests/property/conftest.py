"""Hypothesis profiles, chosen with HYPOTHESIS_PROFILE (default `ci`).

- `ci`: 30 examples, no shrinking. An example runs whole builds that write files, so
  shrinking a failure takes minutes (measured: 2-4 min for one property); ci fails as fast
  as it passes and prints the failing example as drawn.
- `long`: 1000 examples, with shrinking. Run it to hunt, or to shrink a failure ci found:
  the failing example is in the local .hypothesis database and is replayed first.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

_COMMON = settings(
    deadline=None,  # builds write files: their timing is noise, not a property
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile("ci", _COMMON, max_examples=30, phases=[p for p in Phase if p is not Phase.shrink])
settings.register_profile("long", _COMMON, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
