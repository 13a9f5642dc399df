"""Admin of the tournaments app: each model registers here as it is added."""
