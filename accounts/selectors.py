"""Reads on accounts: where an account is signed in, the notices it gets by mail."""

from __future__ import annotations

from accounts.models import NoticeChoice, NoticeKind, SignIn, User


def signins_of(*, user: User) -> list[SignIn]:
    """Where the account is signed in, the most recently seen first."""
    return list(SignIn.objects.filter(user=user).order_by("-last_seen"))


def device_label(user_agent: str) -> str:
    """A short name for the browser and system a User-Agent names ("Firefox, Linux")."""
    browsers = (
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    )
    systems = (
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("Linux", "Linux"),
    )
    browser = next((name for mark, name in browsers if mark in user_agent), "")
    system = next((name for mark, name in systems if mark in user_agent), "")
    return ", ".join(part for part in (browser, system) if part) or user_agent[:60]


def notices_chosen(*, user: User) -> list[str]:
    """The kinds of notice the account gets by mail, in the order of NoticeKind."""
    chosen = set(NoticeChoice.objects.filter(user=user).values_list("kind", flat=True))
    return [k for k in NoticeKind.values if k in chosen]
