"""Signals of the games app. Receivers enqueue their own work (ratings, tournaments);
games imports neither app."""

from django.dispatch import Signal

# Sent after the commit that wrote a MatchResult; kwargs: ``result_id``, ``table_id``.
match_finished = Signal()
# Sent after the commit of any change to an open table's seats (lobby listings);
# kwargs: ``table_id``.
table_changed = Signal()
# Sent inside ``table_join``, under the table's lock, before the seat is taken; kwargs:
# ``table``, ``user``. A receiver refuses the join by raising a ``games.errors``
# error (the social app: a person seated there blocks him); nothing has changed then.
table_joining = Signal()
# Sent inside ``table_open``, in its transaction, after a person opened a table from the
# lobby or the API; kwargs: ``table``, ``user``, ``chat`` (False: he asked for the table's
# chat to be off from the start; the social app keeps chat, games knows nothing of it).
table_opened = Signal()
# Asked by the pages and the API that show a finished match's places: kwargs
# ``table_ids``; a receiver (tournaments: an organiser amended a table's result) answers
# ``{table_id: Amendment}`` for the tables whose places were amended.
result_amendments = Signal()
# Sent before a finished table is played again (``table_rematch``) and when its page asks
# whether to offer it; kwargs ``table``. A receiver refuses by raising a ``games.errors``
# error (tournaments: a tournament's table is seated again only by its tournament).
table_rematching = Signal()
