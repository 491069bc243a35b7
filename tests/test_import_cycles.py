"""Issue #23 (reads below writes): no import cycle among the room's modules, counting the
imports written inside functions (a function-level import hides a cycle from Python's start
up, not from the design). The graph is grimp's, the one import-linter checks its contracts
on (pyproject.toml); imports under `if TYPE_CHECKING:` are left out (they never run)."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def room_packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(graph.find_modules_directly_imported_by(root)))))
        while work:
            module, imported = work[-1]
            advanced = False
            for other in imported:
                if other not in index:
                    index[other] = low[other] = counter
                    counter += 1
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    advanced = True
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


@pytest.fixture(scope="module")
def room_graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(
            *room_packages(),
            include_external_packages=False,
            exclude_type_checking_imports=True,
            cache_dir=None,
        )
    finally:
        sys.path.remove(str(ROOT))


def test_no_import_cycle_among_the_rooms_modules(room_graph: grimp.ImportGraph) -> None:
    cycles = import_cycles(room_graph)
    described = [
        " <-> ".join(cycle)
        + "".join(
            f"\n    {importer} -> {imported} (line {detail['line_number']})"
            for importer in cycle
            for imported in sorted(room_graph.find_modules_directly_imported_by(importer))
            if imported in cycle
            for detail in room_graph.get_import_details(importer=importer, imported=imported)
        )
        for cycle in cycles
    ]
    assert cycles == [], "import cycles:\n" + "\n".join(described)


def test_the_graph_counts_imports_inside_functions(room_graph: grimp.ImportGraph) -> None:
    """The worker's signal handler imports the broadcast inside its function (the app
    registry is not ready when pokerroom.celery is imported): the graph has that edge."""
    assert "tables.services.broadcast" in room_graph.find_modules_directly_imported_by(
        "pokerroom.celery"
    )


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph = grimp.ImportGraph()
    for module in ("room.a", "room.b", "room.c", "room.d"):
        graph.add_module(module)
    graph.add_import(importer="room.a", imported="room.b")
    graph.add_import(importer="room.b", imported="room.c")
    graph.add_import(importer="room.c", imported="room.a")
    graph.add_import(importer="room.c", imported="room.d")
    assert import_cycles(graph) == [["room.a", "room.b", "room.c"]]
