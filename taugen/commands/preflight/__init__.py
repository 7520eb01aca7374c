"""`taugen preflight`: is a run eligible in its cluster, from the compiled tree and the inventory?"""
