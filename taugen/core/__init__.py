"""What every layer uses and that imports nothing of taugen above it: errors as data with their
positions, names and their limits, quantities, timestamps, the CLI's choices, progress."""
