"""The engine's modules import each other in one direction only: no import circle, not
even through an import inside a function or under ``TYPE_CHECKING`` (so no
``match ↔ record ↔ views`` circle comes back)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def _engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports, anywhere in the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:
                out.update(a.name for a in node.names)
            elif node.module and node.module.startswith("games.engine."):
                out.add(node.module.split(".")[2])
    return out


def _graph() -> dict[str, set[str]]:
    return {
        p.stem: _engine_imports(p)
        for p in ENGINE.glob("*.py")
        if p.stem not in ("__init__", "__main__")
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return stack[stack.index(d) :] + [d]
            if d not in state and (found := visit(d)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_engine_modules_import_each_other_without_a_circle() -> None:
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


def test_views_and_record_do_not_import_the_match() -> None:
    graph = _graph()
    assert "match" not in graph["views"]
    assert "match" not in graph["record"]


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
