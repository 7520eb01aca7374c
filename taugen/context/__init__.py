"""The project context under every command: the project, its clusters, their inputs and trees."""
