"""The engine's exceptions: one small hierarchy, all ``ValueError`` subclasses.

``MalformedAction`` — the input cannot be parsed (unknown type, missing field, bad card).
``NotYourTurn`` — a well-formed action from a seat that is not to act.
``IllegalAction`` — a well-formed action by the right seat that the rules forbid now.
``MalformedRecord`` — a match record (docs/spec.md §8) that is not well formed.
``InvalidSeed`` — a fair-dealing seed that is not well formed (``fair.py``).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class MalformedAction(EngineError):
    """The action cannot be parsed: unknown type, missing or mistyped field, bad card."""


class MalformedCard(MalformedAction):
    """A card is not written as ``[9TJQKA][SCDH]`` or ``10`` + suit (docs/spec.md §1, §8)."""


class NotYourTurn(EngineError):
    """The action comes from a seat that is not the one to act."""


class IllegalAction(EngineError):
    """The action is well formed and in turn, but the rules do not allow it now."""


class MalformedRecord(EngineError):
    """A ``thousand/1`` match record (docs/spec.md §8) is not well formed."""


class InvalidOptions(MalformedRecord):
    """An unknown option, or a value outside the set docs/spec.md §7 allows."""


class InvalidSeed(EngineError):
    """A fair-dealing seed that is not well formed: a server seed that is not 32 bytes, a
    client seed that is not 1–128 characters without control characters, or a seat that
    is not at the table (docs/fair-dealing.md)."""
