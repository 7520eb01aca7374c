"""Runs (SPEC §7): load a run, resolve it against its project, render its scheduler contract, and
count what preflight checks; the verbs are taugen.commands.render, .preflight and .profiles."""
