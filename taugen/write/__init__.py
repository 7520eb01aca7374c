"""The write stage: bytes -> out/ (atomic swap, check mode, the no-op cache, safe paths)."""
