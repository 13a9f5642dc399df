"""Models of the ratings app: filled in by later issues (see ARCHITECTURE.md)."""
