"""Property tests (hypothesis): what must hold for every input (STYLE.md, SPEC §4, R26, R27)."""
