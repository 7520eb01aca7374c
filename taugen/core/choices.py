"""The closed sets the CLI offers as choices and defaults, in a module that imports nothing.

`taugen --version`, `--help` and shell completion import only click and this (issue 21: within
0.3 s); each command imports its own modules when it runs. tests/unit/test_cli_startup.py holds
every set here equal to the one its command uses.
"""

from __future__ import annotations

from typing import Literal

INPUT_KINDS = (  # taugen schema KIND: models/schemas.KINDS
    "ClusterInventory",
    "Lock",
    "NodeLabelRules",
    "NodeLabelRulesValues",
    "Project",
    "Run",
    "WorkloadProfile",
    "WorkloadSet",
)
RISK_IDS = (  # diff/risks.IDS
    "rejected",
    "capacity",
    "placement",
    "priority",
    "source",
    "preemption",
    "fallback",
    "held",
)
FAIL_ON = ("change", "risk", *RISK_IDS)
RENDER_FORMATS: tuple[Literal["manifest", "patch"], ...] = ("manifest", "patch")  # runs/render
REPORT_FORMATS = ("text", "json")  # preflight (runs/report) and simulate (simulate/report)
VALIDATE_OUTPUTS = ("json", "junit", "text")  # validate/report.RENDERERS
DEFAULT_KUBERNETES_VERSION = "1.33"  # validate/schemas: the schemas kubernetes-validate ships
DEFAULT_CLUSTER = "my-cluster"  # taugen init
Platform = Literal["aks", "eks", "gke", "onprem"]
PLATFORMS: tuple[Platform, ...] = ("aks", "eks", "gke", "onprem")  # taugen init --platform (R36-R41)
DEFAULT_REPO_URL = "https://git.example.com/platform/gpu-queues.git"
