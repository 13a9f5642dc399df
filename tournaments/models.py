"""Models of the tournaments app: filled in by later issues (see ARCHITECTURE.md)."""
