"""Test-only helpers that are more than builders: CRD schema conversion, quantity parsing."""
