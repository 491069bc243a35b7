"""A whole tournament of bots in the production shape (issue #13): 16 bots register over the
API, are seated by the draw, play at their tables over the WebSocket protocol, follow every
balancing move and the merge to the final table, and stop when they are out; PostgreSQL,
Redis, a real Daphne and the Celery worker with beat (the tournament sweep starts it when the
16th registers, levels end by the clock). At the end every chip and cent is accounted for
(audit_chips) and places 1..16 are each given once (R-TOUR-7), the prizes paid (R-TOUR-9).

Short levels (1 minute, stakes that bust players within a few hands) and a short action
clock keep it to a minute or two on a loaded machine."""

from __future__ import annotations

import asyncio
import io
import os
import time
import uuid
from typing import Any

import pytest
from django.core.management import call_command

from accounts.models import LedgerEntry, LedgerKind
from bots.client import TournamentBot, play_tournament
from stud.payouts import prizes_by_place
from stud.tournament import LevelSpec
from tables.models import Hand, HandPlayer
from tests.consumer_helpers import make_player
from tests.factories import PASSWORD
from tests.room_processes import celery_worker, daphne, room_env
from tournaments.models import Tournament, TournamentEntry, TournamentStatus, TournamentTable
from tournaments.services.demo import RAZZ_DEMO, STUD_DEMO, demo_tournament_load
from tournaments.services.entries import tournament_add_on, tournament_create, tournament_register

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 16
BUY_IN, FEE, ADD_ON = 4000, 400, 1500
# A hand called down at level 1 costs more than the 400 starting chips: players bust fast,
# and the stakes double every minute after.
FAST_LEVELS = (
    LevelSpec(1, ante=25, bring_in=25, small_bet=50, big_bet=100, minutes=1),
    LevelSpec(2, ante=50, bring_in=50, small_bet=100, big_bet=200, minutes=1),
    LevelSpec(3, ante=100, bring_in=100, small_bet=200, big_bet=400, minutes=1),
)


def _tournament_of_sixteen() -> int:
    tournament = tournament_create(
        name="Bots' turbo",
        staff=None,
        levels=FAST_LEVELS,
        settings={
            "buy_in": BUY_IN,
            "fee": FEE,
            "starting_chips": 400,
            "add_on_price": ADD_ON,
            "add_on_chips": 200,
            "add_on_until_level": 2,
            "start_when_registered": PLAYERS,
            "action_clock": 3,
            "time_bank": 0,
        },
    )
    return tournament.pk


def _places_with_ties(places: list[int]) -> list[int]:
    """The places a field would have if each group sharing a place took the best of its
    places: 1, 2, 2, 4, 5... (what `places`, sorted, must equal)."""
    expected, number = [], 1
    for place in sorted(set(places)):
        group = places.count(place)
        expected += [number] * group
        number += group
    return expected


@pytest.mark.services
@pytest.mark.timeout(420)  # the processes' starts and the play on a busy 2-core machine
def test_services_sixteen_bots_play_a_tournament_to_one_winner_every_chip_accounted_for():
    tournament_id = _tournament_of_sixteen()
    players = [make_player() for _ in range(PLAYERS)]
    # Two enter at the desk (the services) and buy the add-on before the start (R-TOUR-1);
    # the bots register over the API, those two being told they already are.
    for player in players[:2]:
        tournament_register(tournament_id=tournament_id, player=player)
        tournament_add_on(tournament_id=tournament_id, player=player)
    env = room_env(
        REDIS_URL=os.environ["REDIS_URL"],
        ROOM_TEST_QUEUE=f"q-{uuid.uuid4().hex}",
        NEXT_HAND_PAUSE_SECONDS="0.5",
        TOURNAMENT_SEATING_SECONDS="1",
        TABLE_WS_ADDRESS_RATE="0",  # sixteen bots from one address
    )
    with daphne(env) as url, celery_worker(env, beat=True) as worker:
        bots = [
            TournamentBot(
                base_url=url,
                tournament_id=tournament_id,
                username=player.username,
                password=PASSWORD,
                policy="random" if number % 3 else "call",  # mostly raising: shorter
                seed=number,
                # The two at the desk bought the add-on; the bots' own buying is the
                # embedded test's below (its chips would lengthen this one).
                add_on="never",
            )
            for number, player in enumerate(players)
        ]
        started = time.monotonic()
        results = asyncio.run(play_tournament(bots, timeout=300))
        print(f"16 bots played the tournament in {time.monotonic() - started:.0f} s")
        assert worker.poll() is None, "the worker died"

    entries = {e.player_id: e for e in TournamentEntry.objects.filter(tournament_id=tournament_id)}
    shown = [(bot.username, result.summary()) for bot, result in zip(bots, results, strict=True)]
    tournament = next(iter(entries.values())).tournament
    assert tournament.status == TournamentStatus.FINISHED, shown

    # R-TOUR-7: places 1..16, each once, but for players out in one hand with equal chips at
    # its start, who share the best of the places they take; one winner. Every bot learnt
    # its own place from the room.
    places = sorted(entry.place for entry in entries.values())
    assert places == _places_with_ties(places) and places.count(1) == 1, places
    for bot, result in zip(bots, results, strict=True):
        assert result.place == entries[bot.player_id].place, shown

    # Two tables from 16 (R-TOUR-2), the merge to a final table at 7 left or fewer
    # (R-TOUR-4). Each bot went to the tables its player was dealt at, in order: it
    # followed every balancing move and the merge. The final table's players (the
    # winner among them) were dealt there, and their bots saw its hands.
    tables = list(TournamentTable.objects.filter(tournament=tournament).order_by("number"))
    assert len(tables) == 3, [t.number for t in tables]
    final = tables[-1].table_id
    for bot, result in zip(bots, results, strict=True):
        dealt_at: list[int] = []
        for table_id in (
            HandPlayer.objects.filter(hand__table__tournament_table__tournament=tournament)
            .filter(player_id=bot.player_id)
            .order_by("hand__started_at")
            .values_list("hand__table_id", flat=True)
        ):
            if not dealt_at or dealt_at[-1] != table_id:
                dealt_at.append(table_id)
        # A player moved twice between two of their deals (balanced to a table, then merged
        # before its next hand) went to a table without being dealt there: the tables it
        # was dealt at come in the bot's order, the last one the same.
        went = iter(result.tables)
        assert all(table_id in went for table_id in dealt_at), (bot.username, dealt_at, shown)
        assert result.tables[-1] == dealt_at[-1], (bot.username, dealt_at, result.summary())
        assert result.moves == len(result.tables) - 1
        if dealt_at[-1] == final:
            assert result.hands_seen[final], f"{bot.username} saw no hand at the final table"
    at_final = [r for r in results if r.tables[-1] == final]
    assert len(at_final) >= 2 and any(r.place == 1 for r in at_final), shown
    assert all(result.table_stats for result in results), shown

    # No hand stuck: every hand dealt at the tournament's tables ended.
    hands = Hand.objects.filter(table__tournament_table__tournament=tournament)
    assert hands.count() > 0 and not hands.filter(ended_at__isnull=True).exists()

    # R-TOUR-9: the pool (buy-ins + add-ons) is paid out to places 1-4; the fees stay the
    # house's; prizes + fees = buy-ins + fees paid + add-ons.
    lines = LedgerEntry.objects.filter(reference=tournament.reference)

    def total(kind: LedgerKind) -> int:
        return sum(lines.filter(kind=kind).values_list("amount", flat=True))

    buy_ins = -total(LedgerKind.TOURNAMENT_BUY_IN)
    add_ons = -total(LedgerKind.TOURNAMENT_ADD_ON)
    fees = -total(LedgerKind.TOURNAMENT_FEE)
    prizes = total(LedgerKind.PRIZE)
    assert (buy_ins, add_ons, fees) == (PLAYERS * BUY_IN, 2 * ADD_ON, PLAYERS * FEE)
    assert total(LedgerKind.TOURNAMENT_REFUND) == 0
    # What the players paid (buy-ins with their fees, add-ons) is what came back as prizes
    # plus what the house kept as fees.
    assert prizes + fees == buy_ins + fees + add_ons
    pool = buy_ins + add_ons
    assert sum(entry.prize for entry in entries.values()) == prizes == pool
    if len(set(places)) == PLAYERS:  # no tie: each paid place its own R-TOUR-9 share
        paid = tuple(
            e.prize for e in sorted(entries.values(), key=lambda e: e.place or 0) if e.prize
        )
        assert paid == prizes_by_place(pool=pool, entrants=PLAYERS)

    out = io.StringIO()
    call_command("audit_chips", stdout=out)  # raises CommandError on any mismatch
    assert "Chips conserved" in out.getvalue()


def test_embedded_four_bots_register_play_the_tournament_out_and_each_gets_a_place():
    """The embedded mode (`make run`'s): one Daphne with its beat on runs the sweep that
    starts the tournament when the fourth registers, the deals and the clocks."""
    tournament = tournament_create(
        name="Bot sit and go",
        staff=None,
        preset="turbo",
        settings={"starting_chips": 30, "start_when_registered": 4, "min_players": 2},
    )
    players = [make_player() for _ in range(4)]
    env = room_env(TOURNAMENT_SEATING_SECONDS="1")
    env["TASKS_RUN_BEAT"] = "1"  # the tournament's sweep starts it and keeps it going
    with daphne(env) as url:
        bots = [
            TournamentBot(
                base_url=url,
                tournament_id=tournament.pk,
                username=player.username,
                password=PASSWORD,
                policy="random",
                seed=number,
                add_on="never",  # over quickly on its 30 chips: no add-on's 400
            )
            for number, player in enumerate(players)
        ]
        results = asyncio.run(play_tournament(bots, timeout=240))

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    places = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", "place")
    )
    for bot, result in zip(bots, results, strict=True):
        assert result.tables, f"{bot.username} never played"
        assert result.place == places[bot.player_id]
    assert 1 in places.values()


@pytest.mark.parametrize("kind", [STUD_DEMO, RAZZ_DEMO], ids=["stud", "razz"])
def test_embedded_the_demo_waits_for_a_player_then_plays_to_a_winner(kind):
    """`make run`'s demos (issue #13; the Razz one, issue #24), smaller: the bots are
    registered and wait on the tournament's socket; a player joining over the API starts it;
    it plays to a winner, every hand of it dealt as the tournament's game."""
    demo = demo_tournament_load(kind=kind, seats=4, starting_chips=30)
    human = make_player()
    env = room_env(TOURNAMENT_SEATING_SECONDS="1")
    env["TASKS_RUN_BEAT"] = "1"
    with daphne(env) as url:

        def bot(username: str, password: str) -> TournamentBot:
            return TournamentBot(
                base_url=url,
                tournament_id=demo.tournament_id,
                username=username,
                password=password,
                policy="random",
                add_on="never",  # over quickly on its 30 chips: no add-on's chips
            )

        bots = [bot(username, demo.bot_password) for username in demo.bot_usernames]

        async def run() -> list[Any]:
            waiting = asyncio.create_task(play_tournament(bots, timeout=240))
            await _until_connected(bots)
            status = await asyncio.to_thread(
                lambda: Tournament.objects.get(pk=demo.tournament_id).status
            )
            assert status == TournamentStatus.REGISTERING  # nine of ten here: three of four
            player = bot(human.username, PASSWORD)
            assert await player.register()
            mine = await player.play(timeout=240)
            return [mine, *(await waiting)]

        results = asyncio.run(run())

    tournament = Tournament.objects.get(pk=demo.tournament_id)
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.entries.count() == 4
    games = {
        hand.state["config"]["game"]
        for hand in Hand.objects.filter(table__tournament_table__tournament=tournament)
    }
    assert games == {kind.game.value}
    assert sorted(r.place for r in results if r.place == 1) == [1]
    assert all(result.place is not None for result in results)


def test_embedded_bots_buy_the_add_on_over_the_api_as_their_policy_says():
    """Issue #21 item 9, R-TOUR-1: a bot buys the add-on with POST /api/tournaments/<id>/
    add-on/ as a player would. "short" (the default) buys once seated with no more than the
    starting stack, "always" as soon as it is offered, "never" does not; the price leaves
    each buyer's wallet once."""
    tournament = tournament_create(
        name="Add-on sit and go",
        staff=None,
        preset="turbo",
        settings={"starting_chips": 30, "start_when_registered": 3, "min_players": 2},
    )
    short, never, always = (make_player() for _ in range(3))
    env = room_env(TOURNAMENT_SEATING_SECONDS="1")
    env["TASKS_RUN_BEAT"] = "1"
    with daphne(env) as url:

        def bot(player: Any, add_on: str) -> TournamentBot:
            return TournamentBot(
                base_url=url,
                tournament_id=tournament.pk,
                username=player.username,
                password=PASSWORD,
                policy="call",
                seed=1,
                add_on=add_on,
            )

        bots = [bot(short, "short"), bot(never, "never"), bot(always, "always")]

        async def run() -> None:
            playing = [asyncio.create_task(b.play(timeout=120)) for b in bots]
            try:
                async with asyncio.timeout(90):
                    while not (
                        bots[0].result.add_on and bots[2].result.add_on and bots[1].result.tables
                    ):
                        await asyncio.sleep(0.1)
            finally:
                for task in playing:
                    task.cancel()
                await asyncio.gather(*playing, return_exceptions=True)

        asyncio.run(run())

    tournament.refresh_from_db()
    entries = {e.player_id: e for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert entries[never.pk].add_on_at is None
    assert bots[1].result.add_on is False
    bought = entries[short.pk].add_on_at
    assert bought is not None and tournament.started_at is not None
    assert bought >= tournament.started_at  # seated first: its stack told it to
    assert entries[always.pk].add_on_at is not None
    lines = LedgerEntry.objects.filter(
        reference=tournament.reference, kind=LedgerKind.TOURNAMENT_ADD_ON
    )
    assert sorted(lines.values_list("player_id", "amount")) == sorted(
        [(short.pk, -1500), (always.pk, -1500)]
    )


async def _until_connected(bots: list[TournamentBot], within: float = 60) -> None:
    """Every bot has read the tournament's first snapshot (it is waiting for the draw)."""
    async with asyncio.timeout(within):
        while any(bot.tournament_seq < 0 for bot in bots):
            await asyncio.sleep(0.1)
