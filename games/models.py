"""Models of the games app: filled in by later issues (see ARCHITECTURE.md)."""
