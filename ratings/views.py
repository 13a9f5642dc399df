"""Pages of the ratings app: the leaderboards and a player's public page (thin: parse the
query, call selectors, render)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import selectors
from ratings.presenters import profile_context

PER_PAGE = 50


def board_from_query(query: Any) -> selectors.Board:
    """The switches from a query string; anything unknown falls back to the default."""
    try:
        players = int(query.get("players", 3))
    except (TypeError, ValueError):
        players = 3
    if players not in (2, 3, 4):
        players = 3
    period = query.get("period", "all")
    if period not in selectors.PERIODS:
        period = "all"
    return selectors.Board(
        players=players,
        period=period,
        provisional=query.get("provisional") in ("1", "on", "true"),
        bots=query.get("bots", "1") in ("1", "on", "true"),
        search=str(query.get("q", ""))[:100].strip(),
    )


def _with(query: Any, **changes: str) -> str:
    """The query string with ``changes`` set (and no page: a new list starts at 1)."""
    out = query.copy()
    out.pop("page", None)
    out.pop("me", None)
    for key, value in changes.items():
        out[key] = value
    return str(out.urlencode())


def leaderboards(request: HttpRequest) -> HttpResponse:
    board = board_from_query(request.GET)
    mine = selectors.player_rank(user=request.user, board=selectors.Board(
        players=board.players, period=board.period, provisional=board.provisional, bots=board.bots
    ))  # fmt: skip
    try:
        number = int(request.GET.get("page", 1))
    except ValueError:
        number = 1
    if request.GET.get("me") and mine is not None and not board.search:
        number = selectors.page_of_rank(mine.rank, PER_PAGE)
    total = selectors.leaderboard_size(board=board)
    # What the switches hide from this board, so that a board that looks empty says why.
    hidden_provisional = (
        0
        if board.provisional
        else selectors.leaderboard_size(board=replace(board, provisional=True)) - total
    )
    page = Paginator(range(total), PER_PAGE).get_page(number)
    rows = selectors.leaderboard(board=board, offset=max(page.start_index() - 1, 0), limit=PER_PAGE)
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("me", None)
    return render(
        request,
        "ratings/leaderboards.html",
        {
            "board": board,
            "rows": rows,
            "total": total,
            "hidden_provisional": hidden_provisional,
            "show_provisional_query": _with(request.GET, provisional="1"),
            "page": page,
            "mine": mine,
            "query": query.urlencode(),
            "pools": (2, 3, 4),
        },
    )


def player(request: HttpRequest, username: str) -> HttpResponse:
    user = selectors.user_by_username(username)
    if user is None:
        raise Http404("no such player")
    return render(request, "ratings/player.html", {"player": user, **profile_context(user)})
