"""G6: the Argo CD and Flux objects that deploy every cluster's core and node-label shards."""
