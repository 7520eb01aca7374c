"""The placement core: Kueue v0.19.2's topology-aware scheduling (S3) on any topology and any
resources, plain values in and out: tree (phase 1), counts, descend and tas (phase 2), request."""
