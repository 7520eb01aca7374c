"""`taugen explain`: why a node has its labels, and what a gpu class holds (issue 11)."""
