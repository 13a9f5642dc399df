#!/usr/bin/env python3
"""Write the card faces the site shows: one SVG sprite per alphabet of rank letters,
``static/cards/cards.svg`` (A K Q J) and ``static/cards/cards-cyrillic.svg`` (Т К Д В, what
Russian and Ukrainian players read on their cards; games/pages/cards.py picks one by the
page's language).

It also holds the few small icons of the table (the barrel), so that a page loads one file.

The 24 cards of Thousand (9, 10, J, Q, K, A in four suits) and a back, each a
``<symbol>`` whose id is the engine's notation (``AS``, ``TH``, ``9C``…, ``back``).
Pages draw a card with ``<svg><use href="/static/cards/cards.svg#QH"/></svg>``.

Made for phones: the rank and suit in the corners are large, because hands overlap and
only the left edge of a card shows; red and black as on a printed deck. No fonts are
embedded: the rank is plain text in the system's sans-serif, suits are paths.

    python scripts/make_cards.py            # rewrite the sprites
    python scripts/make_cards.py --check    # exit 1 if a file is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "static" / "cards"

RED = "#c8102e"
BLACK = "#1b1b1b"
SUITS = {"S": BLACK, "C": BLACK, "D": RED, "H": RED}
RANKS = ("9", "T", "J", "Q", "K", "A")
# The letters each sprite draws, by its file name: "10" and "9" are the same everywhere.
ALPHABETS = {
    "cards.svg": {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
    "cards-cyrillic.svg": {"9": "9", "T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
}
COURT = {"J", "Q", "K"}
W, H = 60, 84

# Suit shapes in a 100×100 box.
SUIT_SHAPES = {
    "H": '<path d="M50 92C22 66 4 50 4 29 4 14 15 4 29 4c10 0 17 6 21 15 4-9 11-15 21-15 14 0 25 10 25 25 0 21-18 37-46 63z"/>',
    "D": '<path d="M50 2 88 50 50 98 12 50z"/>',
    "S": (
        '<path d="M50 3C78 30 96 44 96 63c0 13-10 22-22 22-9 0-16-5-20-12 1 10 5 17 13 24H33'
        'c8-7 12-14 13-24-4 7-11 12-20 12C14 85 4 76 4 63 4 44 22 30 50 3z"/>'
    ),
    "C": (
        '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="59" r="21"/>'
        '<circle cx="74" cy="59" r="21"/><path d="M44 50h12c0 22 3 33 13 47H31c10-14 13-25 13-47z"/>'
    ),
}
FONT = 'font-family="system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif" font-weight="700"'


def suit_symbol(suit: str) -> str:
    return f'<symbol id="s{suit}" viewBox="0 0 100 100">{SUIT_SHAPES[suit]}</symbol>'


def corner(label: str, suit: str) -> str:
    # "10" is set narrower so that it fits the same corner as one character.
    size = 19 if label != "10" else 17
    spacing = ' letter-spacing="-1.5"' if label == "10" else ""
    return (
        f'<text x="{3 if label == "10" else 4}" y="19" font-size="{size}"{spacing}>{label}</text>'
        f'<use href="#s{suit}" x="4" y="23" width="14" height="14"/>'
    )


def center(rank: str, label: str, suit: str, colour: str) -> str:
    if rank in COURT:
        # A framed court card: the letter large, the suit above it.
        return (
            f'<rect x="19.5" y="11.5" width="21" height="61" rx="3" fill="none" stroke="{colour}" stroke-width="1.2" opacity=".55"/>'
            f'<use href="#s{suit}" x="23" y="17" width="14" height="14"/>'
            f'<text x="30" y="58" font-size="22" text-anchor="middle">{label}</text>'
        )
    size = 32 if rank == "A" else 24
    return f'<use href="#s{suit}" x="{W / 2 - size / 2:g}" y="{H / 2 - size / 2:g}" width="{size}" height="{size}"/>'


def face(rank: str, suit: str, letters: dict[str, str]) -> str:
    colour = SUITS[suit]
    label = letters[rank]
    return (
        f'<symbol id="{rank}{suit}" viewBox="0 0 {W} {H}">'
        f'<rect x=".5" y=".5" width="{W - 1}" height="{H - 1}" rx="5" fill="#fff" stroke="#8a8a8a"/>'
        f'<g fill="{colour}" {FONT}>'
        f"{corner(label, suit)}"
        f"{center(rank, label, suit, colour)}"
        f'<g transform="rotate(180 {W / 2:g} {H / 2:g})">{corner(label, suit)}</g>'
        "</g></symbol>"
    )


def back() -> str:
    return (
        f'<symbol id="back" viewBox="0 0 {W} {H}">'
        '<pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#1f5f8b"/><path d="M0 0h8M0 0v8" stroke="#8cc1e6" stroke-width="1.4"/>'
        "</pattern>"
        f'<rect x=".5" y=".5" width="{W - 1}" height="{H - 1}" rx="5" fill="#fff" stroke="#8a8a8a"/>'
        f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="3" fill="url(#lattice)"/>'
        "</symbol>"
    )


def icons() -> list[str]:
    """Small pictures the table shows beside the cards: the barrel (бочка)."""
    return [
        '<symbol id="barrel" viewBox="0 0 20 24">'
        '<path d="M4.5 1h11c2.6 5 2.6 17 0 22h-11c-2.6-5-2.6-17 0-22z" fill="#a0672e" stroke="#4a2c10" stroke-width="1.2"/>'
        '<path d="M2.6 7h14.8M2.6 17h14.8" stroke="#4a2c10" stroke-width="1.6"/>'
        "</symbol>"
    ]


def sprite(letters: dict[str, str]) -> str:
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "<!-- Made by scripts/make_cards.py; edit that, not this. -->",
        *(suit_symbol(s) for s in SUITS),
        *(face(r, s, letters) for s in SUITS for r in RANKS),
        back(),
        *icons(),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    args = parser.parse_args()
    stale = 0
    for name, letters in ALPHABETS.items():
        out, text = OUT_DIR / name, sprite(letters)
        if args.check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                print(f"{out} is out of date: run python scripts/make_cards.py", file=sys.stderr)
                stale = 1
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out} ({len(text)} bytes)")
    return stale


if __name__ == "__main__":
    sys.exit(main())
