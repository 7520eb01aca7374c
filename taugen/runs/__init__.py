"""Runs (SPEC §7): load a run, resolve it against the compiled tree, render and preflight it."""
