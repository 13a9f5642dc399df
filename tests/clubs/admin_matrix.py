"""What the admin's authorization matrices share (tests/clubs/test_admin_scope*.py): the
signed-in clients, a case (one admin URL or action, and who may use it), the URLs of a list
and of an action on it, and the check of one case by one caller: a page is shown exactly to
those allowed (what only they see is on it) and changes nothing; a write by one allowed
changes the database, and by anyone else leaves it as it was (read back) and shows nothing
of the club's but a form's errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.test import Client
from django.urls import reverse

# The callers of the events' matrices: a superuser, the club's organiser (the events right
# alone), another club's organiser, a member of the club with every right but events, a
# plain member, a stranger and an anonymous visitor.
CALLERS = (
    "superuser", "organiser", "other_organiser", "other_rights", "member", "stranger", "anonymous",
)  # fmt: skip
ORGANISERS = frozenset({"superuser", "organiser"})


def client_for(user: Any) -> Client:
    """A client signed in as ``user`` (anonymous for ``None``)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class Case:
    method: str
    url: Callable[[Any], str]
    data: Callable[[Any], dict[str, Any]] | None = None
    marker: str = ""  # a page: what only an allowed caller sees on it
    allowed: frozenset[str] | None = None  # None: the matrix's own default
    changes: bool = True  # a write that changes nothing even when allowed (an export)


def changelist(model: str) -> Callable[[Any], str]:
    """The list page of ``model`` ("app_model")."""
    return lambda w: reverse(f"admin:{model}_changelist")


def action(model: str, name: str, obj: Callable[[Any], Any], **fields: Any) -> Case:
    """The list action ``name`` on ``obj`` (a function of the world)."""
    return Case(
        "post",
        changelist(model),
        lambda w: {"action": name, "_selected_action": [obj(w).pk]},
        **fields,
    )


def check(
    spec: Case,
    world: Any,
    caller: str,
    client: Client,
    snapshot: Callable[[], list[Any]],
    *,
    default: frozenset[str],
    leak: str,
) -> None:
    """One case by one caller. ``leak``: a word of the club's that a refused caller's answer
    must not hold (unless it is a form's error page)."""
    allowed = caller in (default if spec.allowed is None else spec.allowed)
    url = spec.url(world)
    before = snapshot()
    if spec.method == "get":
        answer = client.get(url)
        shown = answer.status_code == 200 and spec.marker in answer.content.decode()
        assert shown == allowed, (answer.status_code, answer.get("Location"))
        assert snapshot() == before
        return
    assert spec.data is not None
    answer = client.post(url, spec.data(world))
    text = answer.content.decode()
    if allowed:
        assert answer.status_code in (200, 302), answer.status_code
        assert "errorlist" not in text, text[:3000]
        if spec.changes:
            assert snapshot() != before, text[:3000]
    else:
        assert snapshot() == before, (answer.status_code, text[:2000])
        if caller != "superuser":  # he sees every club's objects, refused or not
            assert leak not in text or "errorlist" in text or "errornote" in text, text[:2000]
