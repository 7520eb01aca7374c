"""Typed input models (pydantic v2): strict, frozen, unknown keys are errors."""
