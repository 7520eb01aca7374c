"""`taugen validate`: strict offline validation of a manifest tree (schemas + Kueue semantics)."""
