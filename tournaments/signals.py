"""Signals of the tournaments app, for higher apps (a club's season tables follow its
events' standings); tournaments imports none of them."""

from django.dispatch import Signal

# Sent inside the transaction that rewrote a tournament's standings (a round counted, the
# event finished, a result amended, a player disqualified or reinstated); kwargs:
# ``tournament_id``. A receiver that works from the standings waits for the commit.
standings_written = Signal()
