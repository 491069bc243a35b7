"""Issue #12: dependencies run one way, and database writes stay in services (DESIGN.md
"Layout"). The import-linter contracts of pyproject.toml ([tool.importlinter]) hold: stud
imports nothing of the room nor Django; tables (and accounts, stud) import none of histories,
accounting, api, bots; nothing imports bots; the bot client talks to the room only over HTTP
and WebSocket; the table services import no task module (they send tasks by name). No view,
consumer, task, selector or API module writes through the ORM."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_dependencies_run_one_way() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    count = len(contracts["contracts"])
    assert f"Contracts: {count} kept, 0 broken." in result.stdout


# DESIGN.md "Layout": database writes only in services; views, consumers, tasks, selectors and
# the API stay thin and call a service to change anything.
THIN_LAYERS = (
    "*/views.py",
    "*/views/*.py",
    "*/consumers.py",
    "*/realtime/*.py",
    "*/tasks.py",
    "*/selectors.py",
    "*/selectors/*.py",
    "api/*.py",
)
ORM_WRITES = {"save", "delete", "create", "bulk_create", "bulk_update"}
ORM_WRITES |= {"get_or_create", "update_or_create"}
QUERYSET_STEPS = {"filter", "exclude", "all", "select_for_update", "objects"}


def orm_writes_in(path: Path) -> list[str]:
    """Each call in ``path`` that writes through the ORM: ``x.save()``, ``Model.objects.create``,
    ``qs.filter(...).update(...)``; a set's or dict's ``update`` is not one."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        step = receiver.func if isinstance(receiver, ast.Call) else receiver
        step_name = step.attr if isinstance(step, ast.Attribute) else ""
        if node.func.attr in ORM_WRITES or (
            node.func.attr == "update" and step_name in QUERYSET_STEPS
        ):
            where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
            found.append(f"{where}:{node.lineno} .{node.func.attr}()")
    return found


def test_database_writes_only_in_services() -> None:
    thin = sorted({path for pattern in THIN_LAYERS for path in ROOT.glob(pattern)})
    assert len(thin) > 20, [str(path) for path in thin]
    assert [write for path in thin for write in orm_writes_in(path)] == []


def test_the_write_finder_sees_a_write_in_a_view(tmp_path: Path) -> None:
    view = tmp_path / "views.py"
    view.write_text(
        "def v(request, hand):\n    hand.save()\n    Hand.objects.filter(pk=1).update(x=2)\n"
        "    seen = set()\n    seen.update({1})\n"
    )
    try:
        assert [write.split(":")[1] for write in orm_writes_in(view)] == [
            "2 .save()",
            "3 .update()",
        ]
    finally:
        view.unlink()
