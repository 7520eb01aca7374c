"""The emit stage: manifests -> canonical bytes."""
