"""What a server process's periodic credential check costs (core.ws_guard).

Every half of ``GAMES_WS_CREDENTIAL_SECONDS`` each server process checks the credentials
of all its signed-in sockets in PostgreSQL. This times, in this one process, the check
as it was (the ORM's ``IN`` of every account, every generation read back and compared
here: ``core.credentials.credential_generations``) and as it is (one statement that sends
the pairs as two arrays and answers with only the revoked ones:
``core.credentials.credentials_revoked``), for a few socket counts, nothing revoked (the
common case). It prints the CPU of this process (what the server's event loop and thread
pool pay) and the wall time per check, beside the engine's deals/s (the machine's
yardstick, docs/benchmarks.md section 12).

It needs a migrated database with at least as many accounts as the largest count
(``bench.table_load`` leaves 900 behind in its database): ``DATABASE_URL`` names it.

Run: ``DATABASE_URL=postgres://…/thousand_bench python -m bench.credential_check``
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

ROUNDS = 200


def _time(check: Callable[[], object]) -> tuple[float, float]:
    """CPU and wall milliseconds per call (the median of three runs of ROUNDS calls)."""
    runs = []
    for _ in range(3):
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(ROUNDS):
            check()
        runs.append(
            (
                (time.process_time() - cpu) * 1000 / ROUNDS,
                (time.perf_counter() - wall) * 1000 / ROUNDS,
            )
        )
    runs.sort()
    return runs[1]


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from bench.engine import deals_per_second
    from core.credentials import credential_generations, credentials_revoked

    users = list(
        get_user_model()._default_manager.order_by("pk").values_list("pk", "credential_generation")
    )
    print(f"engine yardstick: {deals_per_second():,.0f} deals/s; load {os.getloadavg()[0]:.1f}")
    print("| sockets | ORM IN, CPU / wall ms | one statement, CPU / wall ms |")
    print("|---:|---:|---:|")
    for count in (50, 150, 450):
        if count > len(users):
            break
        held = users[:count]

        def before(held: list[tuple[int, int]] = held) -> object:
            generations = credential_generations(user_ids={u for u, _g in held})
            return [generations.get(u) != g for u, g in held]

        def after(held: list[tuple[int, int]] = held) -> object:
            return credentials_revoked(held=held)

        assert not any(before()) and not after()  # type: ignore[call-overload]
        old, new = _time(before), _time(after)
        print(f"| {count} | {old[0]:.2f} / {old[1]:.2f} | {new[0]:.2f} / {new[1]:.2f} |")


if __name__ == "__main__":
    main()
