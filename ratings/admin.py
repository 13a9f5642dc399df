"""Admin of the ratings app: each model registers here as it is added."""
