"""The fair-play app's settings (docs/fair-play.md), read from the environment;
``config.settings`` takes them from here."""

from __future__ import annotations

import environ

env = environ.Env()

# Fair play (docs/fair-play.md): the scores that raise a flag for the moderators, set by
# bench/fair_play.py so that at most 1% of honest players and pairs pass them, and the
# matches a player or a pair must have played before any flag.
FAIRPLAY_PAIR_THRESHOLD = env.float("FAIRPLAY_PAIR_THRESHOLD", default=3.0)
FAIRPLAY_SOFT_PLAY_THRESHOLD = env.float("FAIRPLAY_SOFT_PLAY_THRESHOLD", default=3.0)
# The engine score is a log-likelihood ratio (fairplay.scoring.engine_llr): ln 100 bounds
# the honest players it ever flags at 1%, when his level's agreement is known.
FAIRPLAY_ENGINE_THRESHOLD = env.float("FAIRPLAY_ENGINE_THRESHOLD", default=4.6)
FAIRPLAY_CLOCK_THRESHOLD = env.float("FAIRPLAY_CLOCK_THRESHOLD", default=3.0)
FAIRPLAY_MIN_MATCHES = env.int("FAIRPLAY_MIN_MATCHES", default=10)
# Decisions of each person a match that the screening asks the master search about.
FAIRPLAY_SCREEN_DECISIONS = env.int("FAIRPLAY_SCREEN_DECISIONS", default=32)
# A larger budget for players of a high level (docs/fair-play.md, "engine help"): a player
# rated at least FAIRPLAY_HIGH_LEVEL_RATING in the table's pool has his decisions asked at
# FAIRPLAY_HIGH_LEVEL_SAMPLES worlds instead of the screening's 6, his agreement counted
# and weighed apart. Off (None) by default: in bench/fair_play_budget.py 24 worlds open a
# gap of only 0.04 between an engine user and strong players, far from a flag, at about
# 0.55 CPU s more a high-level seat a match.
FAIRPLAY_HIGH_LEVEL_RATING = env.float("FAIRPLAY_HIGH_LEVEL_RATING", default=None)
FAIRPLAY_HIGH_LEVEL_SAMPLES = env.int("FAIRPLAY_HIGH_LEVEL_SAMPLES", default=24)
# The full analysis of a flagged player's (pair's) matches: how many of his latest, at
# how many worlds a decision (the analysis app's master valuation, on its queue).
FAIRPLAY_ANALYSIS_MATCHES = env.int("FAIRPLAY_ANALYSIS_MATCHES", default=5)
FAIRPLAY_ANALYSIS_SAMPLES = env.int("FAIRPLAY_ANALYSIS_SAMPLES", default=40)
