"""The labels every scheduler's run objects carry: the profile, and the gpu-class when set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taugen.resolve.labels import GPU_CLASS

if TYPE_CHECKING:
    from taugen.engines.runs.resolution import RunContext

PROFILE = "tau.azure.com/profile"


def common_labels(context: RunContext) -> dict[str, str]:
    labels = {PROFILE: context.entry.name}
    if isinstance(context.policy.gpu_class, str):  # R47: a list has no one class to name
        labels[GPU_CLASS] = context.policy.gpu_class
    return labels
