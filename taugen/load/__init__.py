"""Load stage: YAML files -> typed input models, with source positions (STYLE.md)."""
