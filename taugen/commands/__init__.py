"""One module (or package) per CLI verb, each on the project context; none imports another.

Every command reads taugen.yaml through `Project`, whose cluster entries the schedulers own:
importing the registry here completes it (taugen/models/entries.py) before any command runs.
"""

import taugen.schedulers.registry  # noqa: F401
