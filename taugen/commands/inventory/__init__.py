"""`taugen inventory show` and `taugen inventory import` (issue 11)."""
