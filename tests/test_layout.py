"""Issue #12: dependencies run one way. The import-linter contracts of pyproject.toml
([tool.importlinter]) hold: stud imports nothing of the room nor Django; tables (and
accounts, stud) import none of histories, accounting, api, bots; nothing imports bots; the
bot client talks to the room only over HTTP and WebSocket; the table services import no task
module (they send tasks by name)."""

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
