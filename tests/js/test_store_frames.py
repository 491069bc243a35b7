"""lichess's and Zulip's check on the browser room's store (issue #12), on frames recorded
from a live room: a snapshot, plus the frames the consumer sent after it, run through
static/js/table/store.js in Chromium, leave the store as the next snapshot alone does (for
what the store keeps), for a seated player and for a watcher."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables.models import Seat, Table
from tests.consumer_helpers import (
    TableClient,
    consumer_test_room,  # noqa: F401 (autouse)
    current_hand,
    deal_hand,
    engine_of,
    make_player,
    make_table,
    seated_clients,
)
from tests.frame_proof import differences

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CHECKS = "/tests/js/store_checks.js"
# Each player to act checks, calls or brings in: the hand goes on street by street.
PASSIVE = ("check", "call", "bring_in")


def next_move(table_id: int) -> tuple[int, dict[str, Any]]:
    """The seat to act and its most passive legal action, as an `act` command."""
    hand = current_hand(table_id)
    assert hand is not None
    engine = engine_of(hand)
    seat = engine.to_act
    assert seat is not None
    offers = {offer.kind.value: offer for offer in engine.legal_actions(seat)}
    kind = next(k for k in PASSIVE if k in offers)
    act = {
        "type": "act",
        "seq": hand.seq,
        "hand_id": hand.pk,
        "kind": kind,
        "amount": offers[kind].amount,
    }
    return seat, act


class Recorder:
    """One viewer's connection, cut into snapshots and the frames between them."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.cuts: list[int] = []  # the index of each snapshot asked for in client.frames

    async def snapshot(self) -> None:
        await self.client.request({"type": "snapshot"}, "snapshot")
        self.cuts.append(self.client.read - 1)

    def between(
        self, first: int, last: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        """Snapshot `first`, the frames after it up to snapshot `last`, and snapshot `last`."""
        frames = self.client.frames
        start, end = self.cuts[first], self.cuts[last]
        return frames[start], frames[start + 1 : end], frames[end]


async def play(
    table_id: int, clients: dict[int, TableClient], viewers: list[TableClient], actions: int
) -> None:
    for _ in range(actions):
        seat, act = await database_sync_to_async(next_move)(table_id)
        reply = await clients[seat].request(act, "result")
        assert reply["ok"], reply
        for viewer in viewers:
            await viewer.drain()


async def record_a_hand(*, triple_stud: bool = False) -> tuple[dict[str, Recorder], dict[str, int]]:
    """Alice and Bob play the first streets of a hand while a visitor watches; each takes a
    snapshot before the deal, after three actions and after six. `triple_stud`: at a Triple
    Stud table (R-MIX-1) whose hand is its 8th, the last Stud hand before Razz."""
    table = await database_sync_to_async(make_table)(triple_stud=triple_stud)
    if triple_stud:
        await database_sync_to_async(
            lambda: Table.objects.filter(pk=table.pk).update(hands_dealt=7)
        )()
    alice_player, bob_player = [await database_sync_to_async(make_player)() for _ in range(2)]
    alice, bob = await seated_clients(table.pk, [alice_player, bob_player])
    visitor = await TableClient.open(table.pk)
    await visitor.wait_for(lambda f: f["type"] == "snapshot")
    viewers = [alice, bob, visitor]
    for viewer in viewers:
        await viewer.drain()
    seats = dict(
        await database_sync_to_async(
            lambda: list(Seat.objects.filter(table=table).values_list("number", "player_id"))
        )()
    )
    by_seat = {number: alice if pid == alice_player.pk else bob for number, pid in seats.items()}
    recorders = {"player": Recorder(alice), "watcher": Recorder(visitor)}
    for recorder in recorders.values():
        await recorder.snapshot()
    await deal_hand(table.pk)
    for viewer in viewers:
        await viewer.drain()
    await play(table.pk, by_seat, viewers, 3)
    for recorder in recorders.values():
        await recorder.snapshot()
    await play(table.pk, by_seat, viewers, 3)
    for recorder in recorders.values():
        await recorder.snapshot()
    for viewer in viewers:
        await viewer.close()
    return recorders, {"player": alice_player.pk}


@pytest.mark.parametrize("viewer", ["player", "watcher"])
async def test_a_snapshot_plus_the_frames_after_it_equals_the_next_snapshot(viewer, modules):
    """From before the deal to the third action, from there to the sixth (mid-hand, across a
    street), and the whole way: the store fed the frames agrees with the later snapshot on the
    hand (the engine's view: seats, cards the viewer may see, bets, pot, street, turn, offers),
    the seats, the viewer and the waiting list."""
    recorders, player_ids = await record_a_hand()
    recorder = recorders[viewer]
    player_id = player_ids.get(viewer)
    for first, last in ((0, 1), (1, 2), (0, 2)):
        before, frames, after = recorder.between(first, last)
        assert after["hand"] is not None and frames, "the recording holds a hand in play"
        kinds = [f.get("kind") for f in frames if f["type"] == "event"]
        if first == 1:
            assert "street" in kinds  # the second stretch crosses into 4th street
        compared = await modules.call(
            CHECKS, "snapshotThenFrames", before, frames, after, {"playerId": player_id}
        )
        assert compared["viaFrames"] == compared["viaSnapshot"], differences(
            compared["viaFrames"], compared["viaSnapshot"]
        )


@pytest.mark.parametrize("viewer", ["player", "watcher"])
async def test_r_mix_1_the_header_at_a_triple_stud_table_follows_the_deal_from_the_frames(
    viewer, modules
):
    """R-MIX-1 (issue #24): at a Triple Stud table the 8th hand is dealt. The frames the
    consumer really sent leave the page's store with the table (its game and the rotation's
    words) the next snapshot has, and the header reads "now Stud · next hand Razz" before
    any snapshot is asked for: the page draws the server's words, it works nothing out."""
    recorders, player_ids = await record_a_hand(triple_stud=True)
    recorder = recorders[viewer]
    options = {"playerId": player_ids.get(viewer)}
    before, frames, after = recorder.between(0, 1)
    assert [f["type"] for f in frames].count("table_game") == 1
    compared = await modules.call(CHECKS, "snapshotThenFrames", before, frames, after, options)
    assert compared["viaFrames"] == compared["viaSnapshot"], differences(
        compared["viaFrames"], compared["viaSnapshot"]
    )
    waiting = await modules.call(CHECKS, "headerAfter", [before], options)
    dealt = await modules.call(CHECKS, "headerAfter", [before, *frames], options)
    assert waiting["stakes"].startswith("Triple Stud · next hand Stud · then Razz · $2/$4")
    assert dealt["stakes"].startswith("Triple Stud · now Stud · next hand Razz · $2/$4")


RANK_FACES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "♣♦♥♠"


def card_label(card: int) -> str:
    """A card as the log writes it (static/js/cards.js cardLabel)."""
    return RANK_FACES[card >> 2] + SUITS[card & 3]


@pytest.mark.parametrize("viewer", ["player", "watcher"])
async def test_r_hist_2_the_live_log_names_only_the_down_cards_the_viewer_holds(viewer, modules):
    """R-HIST-2, issue #21: the log the table page draws from the frames a viewer really got
    marks the streets and names the cards dealt face up, and never a down card the viewer
    may not see: the player's own, yes; the other's, never; a watcher's, none."""
    from tables.models import HandEvent

    recorders, player_ids = await record_a_hand()
    frames = recorders[viewer].client.frames
    player_id = player_ids.get(viewer)
    log = await modules.call(CHECKS, "logAfter", frames, {"playerId": player_id})
    downs = await database_sync_to_async(
        lambda: list(
            HandEvent.objects.filter(kind="down_cards").values_list("visible_to", "payload")
        )
    )()
    assert downs, "the recording dealt down cards"
    text = "\n".join(log["lines"])
    assert "*** 3rd STREET ***" in log["markers"] and "*** 4th STREET ***" in log["markers"]
    seats = {
        pid: number
        for number, pid in await database_sync_to_async(
            lambda: list(Seat.objects.values_list("number", "player_id"))
        )()
    }
    mine = seats.get(player_id) if player_id else None
    if mine is None:
        assert "(down)" not in text
    for seat, payload in downs:
        for card in payload["cards"]:
            # A card is dealt once: its label in the log means this very down card.
            assert (card_label(card) in text) == (seat == mine), (seat, card_label(card))
