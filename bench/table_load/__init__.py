"""Live tables under load: the whole stack, driven over real websockets.

This script starts everything itself on this machine (PostgreSQL and Redis must already
run): a fresh database (``thousand_bench`` by default, dropped and migrated at start), an
ASGI server with two worker processes, a Celery worker and Celery beat, all with
``DATABASE_URL``/``REDIS_URL`` pointing at the bench's own database and Redis db. Then,
for each configuration, it creates N tables of three human accounts (token auth) through
the services, starts them, and hands them to a load generator in its own process(es),
which plays them over ``ws/tables/<id>/`` using only docs/protocol.md: each simulated
player picks a random action from its view's ``legal`` when it is its turn.

Printed per configuration (one table at the end):

- actions/s: actions whose update had reached all three clients of their table inside
  the measurement window, divided by the window;
- send-to-view latency, median and 99th percentile: from a client's send of an action to
  the moment all three clients of the table have received the ``update`` with the new
  version (one clock: the three clients of a table live in one load-generator process);
- stalled tables: tables that went ``--stall`` seconds (default 5) or more without
  progress during the window while a player was to act;
- matches finished in the window: the three players of a finished table at once get a
  new table through the REST API (create, join, join, start) and play on;
- errors received (any ``error`` frame; none are expected);
- CPU: per action, of the server's processes (its kernel share in brackets) and of the
  PostgreSQL backends serving the bench's database; and CPU seconds per second of the
  server, those backends, the load generator(s) and the whole machine (2.00 on two cores
  means saturated: on a shared machine, by everyone's work).

The default run is short (3 s warm-up, 15 s windows): 10, 100 and 300 tables, closed loop
(a player acts as soon as it is its turn) and with a 1-second think time, then the
300-table closed loop again with one ASGI worker process.

Run: ``python -m bench.table_load`` (about five minutes)
     ``python -m bench.table_load --tables 10 --think 0 --one-worker ''`` (a quick check)
     ``python -m bench.table_load --window 60 --warmup 10`` (longer windows)
"""
