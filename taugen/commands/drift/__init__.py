"""`taugen drift`: the live cluster against the compiled tree and the inventory (issue 11)."""
