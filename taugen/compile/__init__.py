"""Compile stage: resolved cluster + lock -> manifests (common objects + one backend)."""
