"""taugen.lock and the GPU quota history it keeps (R26, R31, R35)."""
