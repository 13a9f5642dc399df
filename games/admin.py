"""Admin of the games app: each model registers here as it is added."""
