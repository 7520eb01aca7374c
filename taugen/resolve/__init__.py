"""Resolve stage: inventory + rules -> resolved nodes, domains and gpu classes (SPEC §2)."""
