"""A tournament of bots played to the end in the production shape (issue #13).

    DATABASE_URL=postgres://pokerroom:pokerroom@127.0.0.1:5432/pokerroom \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/python benchmarks/tournament.py --players 16 --level-minutes 1 --chips 200

It builds a fresh database `<name>_tournament`, starts a Daphne, the Celery worker and Celery
beat (the tournament sweep: the start, the level clock), creates a turbo tournament (R-TOUR-8's
turbo levels, each `--level-minutes` long, no breaks) and `--players` funded players who enter
it, and lets one bot per player play it to the end, every bot acting the moment its turn
comes (it registers nothing over HTTP: the entries are made through the services, so the
logins' password hashing is not what is measured). The tournament starts when the last
enters (the sweep), is drawn on two tables, balances, merges and ends with one winner.

From the hands' and the entries' timestamps in the database it reports:
- hands per minute (all tables together, from the first deal to the last hand's end);
- the longest pause between two hands at any table (one hand's end to the next's start);
- each move (R-TOUR-3 balancing) and the merge (R-TOUR-4): the seconds from the elimination
  that caused it to the moved player's first deal at the new table;
- the bots' action-to-broadcast latency, and `manage.py audit_chips`' verdict.
`--json PATH` writes the report as JSON too.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.tables import (  # noqa: E402
    daphne_command,
    free_port,
    fresh_room_database,
    percentile,
    room_processes,
)


def beat_command() -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "pokerroom", "beat", "-l", "warning"]


def tournament_with_players(
    players: int, *, chips: int, level_minutes: int, action_clock: int
) -> tuple[int, list[str]]:
    """The turbo tournament and its entrants' session cookies (entered through the
    services, as at the desk). It starts when the last has entered (the sweep)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import LedgerKind, Player
    from accounts.services import wallet_credit
    from stud.tournament import TURBO_STRUCTURE
    from tournaments.services.entries import tournament_create, tournament_register

    levels = [replace(level, minutes=level_minutes, break_minutes=0) for level in TURBO_STRUCTURE]
    tournament = tournament_create(
        name=f"Benchmark turbo of {players}",
        staff=None,
        levels=levels,
        settings={
            "starting_chips": chips,
            "max_players": max(players, 2),
            "start_when_registered": players,
            "action_clock": action_clock,
            "time_bank": 0,
            "add_on_price": 0,
        },
    )
    cookies = []
    for number in range(players):
        player = Player.objects.create_user(
            username=f"tbench{number}", email=f"tbench{number}@bench.invalid", password=None
        )
        wallet_credit(
            player_id=player.pk, amount=100_000, kind=LedgerKind.DEPOSIT, reason="benchmark"
        )
        tournament_register(tournament_id=tournament.pk, player=player)
        session = SessionStore()
        session[SESSION_KEY] = str(player.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = player.get_session_auth_hash()
        session.create()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
    return tournament.pk, cookies


async def play(url: str, tournament_id: int, cookies: list[str], timeout: float) -> list[Any]:
    from bots.client import TournamentBot, play_tournament

    bots = [
        TournamentBot(
            base_url=url,
            tournament_id=tournament_id,
            cookie=cookie,
            policy="random" if number % 3 else "call",
            seed=number,
            register=False,
        )
        for number, cookie in enumerate(cookies)
    ]
    await play_tournament(bots, timeout=timeout)
    return bots


def _seconds(later: datetime, earlier: datetime) -> float:
    return (later - earlier).total_seconds()


def measure(tournament_id: int) -> dict[str, Any]:
    """The figures, from the database's own timestamps."""
    from tables.models import Hand, HandPlayer
    from tournaments.models import Tournament, TournamentEntry, TournamentTable

    tournament = Tournament.objects.get(pk=tournament_id)
    tables = {t.table_id: t for t in TournamentTable.objects.filter(tournament=tournament)}
    hands = list(Hand.objects.filter(table_id__in=tables).order_by("started_at"))
    ended = [hand for hand in hands if hand.ended_at is not None]
    span = _seconds(max(h.ended_at for h in ended), hands[0].started_at) if ended else 0.0
    pauses: list[tuple[float, int]] = []
    for table_id in tables:
        mine = sorted((h for h in hands if h.table_id == table_id), key=lambda h: h.number)
        for before, after in itertools.pairwise(mine):
            if before.ended_at is not None:
                pauses.append((_seconds(after.started_at, before.ended_at), table_id))
    eliminations = sorted(
        e.eliminated_at
        for e in TournamentEntry.objects.filter(tournament=tournament, eliminated_at__isnull=False)
    )
    first_number = min(t.number for t in tables.values())
    final_number = max(t.number for t in tables.values())
    moves: list[dict[str, Any]] = []
    dealt: dict[int, list[tuple[datetime, int]]] = {}
    for row in HandPlayer.objects.filter(hand__in=hands).select_related("hand"):
        dealt.setdefault(row.player_id, []).append((row.hand.started_at, row.hand.table_id))
    for player_id, deals in dealt.items():
        deals.sort()
        for (_, before), (at, after) in itertools.pairwise(deals):
            if before == after:
                continue
            cause = max((when for when in eliminations if when <= at), default=None)
            moves.append(
                {
                    "player_id": player_id,
                    "kind": "merge" if tables[after].number == final_number else "balance",
                    "from_table": tables[before].number,
                    "to_table": tables[after].number,
                    "seconds": None if cause is None else _seconds(at, cause),
                }
            )
    entries = list(TournamentEntry.objects.filter(tournament=tournament))

    def summary(kind: str) -> dict[str, Any]:
        values = [m["seconds"] for m in moves if m["kind"] == kind and m["seconds"] is not None]
        return {
            "count": len([m for m in moves if m["kind"] == kind]),
            "median_s": statistics.median(values) if values else None,
            "max_s": max(values) if values else None,
        }

    return {
        "status": tournament.status,
        "players": len(entries),
        "places": sorted(e.place for e in entries if e.place is not None),
        "tables": len(tables),
        "first_table": first_number,
        "hands": len(hands),
        "hands_not_ended": len(hands) - len(ended),
        "play_seconds": span,
        "hands_per_minute": len(ended) / (span / 60) if span else 0.0,
        "longest_pause_s": max(pauses)[0] if pauses else None,
        "median_pause_s": statistics.median(p for p, _ in pauses) if pauses else None,
        "balancing_moves": summary("balance"),
        "merge_moves": summary("merge"),
        "moves": moves,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--chips", type=int, default=200, help="starting chips (R-TOUR-1: 800)")
    parser.add_argument("--level-minutes", type=int, default=1, help="turbo: 3")
    parser.add_argument("--pause", type=float, default=None, help="NEXT_HAND_PAUSE_SECONDS")
    parser.add_argument("--clock", type=int, default=5, help="the action clock, seconds")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args()

    base_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures that shape")
    extra = {"TOURNAMENT_SEATING_SECONDS": "2"}
    if options.pause is not None:
        extra["NEXT_HAND_PAUSE_SECONDS"] = str(options.pause)
    env = fresh_room_database(base_url, "tournament", **extra)
    from django.conf import settings

    pause = settings.NEXT_HAND_PAUSE_SECONDS
    port = free_port()
    assert daphne_command(port)  # the same Daphne as benchmarks/tables.py
    beat = subprocess.Popen(
        beat_command(), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with room_processes(env, [port]):
            tournament_id, cookies = tournament_with_players(
                options.players,
                chips=options.chips,
                level_minutes=options.level_minutes,
                action_clock=options.clock,
            )
            started = time.perf_counter()
            bots = asyncio.run(
                play(f"http://127.0.0.1:{port}", tournament_id, cookies, options.timeout)
            )
            wall = time.perf_counter() - started
    finally:
        beat.terminate()
        beat.wait(10)
    report = measure(tournament_id)
    latencies = [
        latency
        for bot in bots
        for stats in bot.result.table_stats.values()
        for latency in stats.broadcast_latencies
    ]
    audit = subprocess.run(
        [sys.executable, "manage.py", "audit_chips"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    report.update(
        wall_seconds=wall,
        next_hand_pause_s=pause,
        level_minutes=options.level_minutes,
        starting_chips=options.chips,
        action_clock_s=options.clock,
        actions=len(latencies),
        broadcast_p50_ms=percentile(latencies, 0.5) * 1000,
        broadcast_p99_ms=percentile(latencies, 0.99) * 1000,
        bot_moves_followed=sum(bot.result.moves for bot in bots),
        audit_exit_code=audit.returncode,
        audit_output=(audit.stdout + audit.stderr).strip()[-2000:],
    )
    shown = {k: v for k, v in report.items() if k != "moves"}
    print(json.dumps(shown, indent=2, default=str))
    if options.json is not None:
        options.json.write_text(json.dumps(report, indent=2, default=str))
    if report["status"] != "finished" or report["audit_exit_code"] != 0:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
