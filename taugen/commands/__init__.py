"""One module (or package) per CLI verb, each on the project context; none imports another."""
