"""The rules of Seven Card Stud and Stud Hi/Lo as plain Python (docs/engine-contract.md).

No Django import anywhere below this package.
"""

from stud.actions import (
    Abandon,
    Action,
    ActionKind,
    Event,
    IllegalAction,
    LegalAction,
    LogRecord,
    Show,
    TimeOut,
    record_from_json,
)
from stud.config import Game, GameConfig, OddChip, SeatSetup
from stud.hand import StudHand, replay
from stud.rake import RakeSchedule, RakeTier, seeded_rake_schedule
from stud.result import Award, HandResult, PotResult
from stud.view import view

__all__ = [
    "Abandon",
    "Action",
    "ActionKind",
    "Award",
    "Event",
    "Game",
    "GameConfig",
    "HandResult",
    "IllegalAction",
    "LegalAction",
    "LogRecord",
    "OddChip",
    "PotResult",
    "RakeSchedule",
    "RakeTier",
    "SeatSetup",
    "Show",
    "StudHand",
    "TimeOut",
    "record_from_json",
    "replay",
    "seeded_rake_schedule",
    "view",
]
