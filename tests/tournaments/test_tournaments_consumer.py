"""The tournament socket (docs/protocol.md "Tournaments"): a snapshot on connect, a full
snapshot with a higher seq after each change (broadcast after commit), the lobby's rows,
the player's own "moved" and "eliminated" notices, and nothing else accepted."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import Player
from pokerroom.asgi import application
from tables.models import Seat
from tests.consumer_helpers import ORIGIN_HEADERS, consumer_test_room, session_cookie  # noqa: F401
from tests.tournaments.tui_rows import make_tournament, running_tournament
from tournaments import broadcast
from tournaments.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class TournamentClient:
    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator

    @classmethod
    async def open(cls, path: str, player: Player | None = None) -> TournamentClient:
        headers = list(ORIGIN_HEADERS)
        if player is not None:
            headers.append((b"cookie", await database_sync_to_async(session_cookie)(player)))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        connected, _ = await communicator.connect()
        assert connected
        return cls(communicator)

    async def next(self, timeout: float = 3.0) -> dict[str, Any]:
        output = await self.communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return {"type": "_closed", "code": output.get("code")}
        frame: dict[str, Any] = json.loads(output["text"])
        return frame

    async def nothing(self) -> bool:
        return await self.communicator.receive_nothing(timeout=0.2)

    async def close(self) -> None:
        await self.communicator.disconnect()


def changed(tournament_id: int) -> None:
    broadcast.tournament_changed(tournament_id)


async def test_the_page_gets_the_snapshot_then_a_newer_one_after_each_change(db: Any) -> None:
    tournament, players, _ = await database_sync_to_async(running_tournament)(4)
    viewer = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/")
    first = await viewer.next()
    assert first["type"] == "tournament"
    assert first["tournament"]["players_left"] == 4
    assert first["tournament"]["level"]["small_bet"] == 10

    def eliminate() -> None:
        Seat.objects.filter(player=players[3]).delete()
        TournamentEntry.objects.filter(player=players[3]).update(place=4)
        changed(tournament.pk)

    await database_sync_to_async(eliminate)()
    second = await viewer.next()

    assert second["seq"] > first["seq"]
    assert second["tournament"]["players_left"] == 3
    assert [s["place"] for s in second["tournament"]["standings"]][-1] == 4
    await viewer.close()


async def test_a_tournament_table_finds_its_tournament(db: Any) -> None:
    tournament, _, tables = await database_sync_to_async(running_tournament)(4)
    viewer = await TournamentClient.open(f"/ws/tournaments/tables/{tables[1].pk}/")

    frame = await viewer.next()

    assert frame["type"] == "tournament" and frame["tournament_id"] == tournament.pk
    await viewer.close()


async def test_a_cash_table_or_unknown_tournament_is_refused_and_closed(db: Any) -> None:
    from tests.consumer_helpers import make_table

    cash = await database_sync_to_async(make_table)()
    for path in (f"/ws/tournaments/tables/{cash.pk}/", "/ws/tournaments/987654/"):
        viewer = await TournamentClient.open(path)
        assert (await viewer.next())["code"] == "not_found"
        assert await viewer.next() == {"type": "_closed", "code": 4404}


async def test_the_lobby_gets_its_rows_then_a_row_per_change(db: Any) -> None:
    tournament = await database_sync_to_async(make_tournament)(name="Sit and go")
    lobby = await TournamentClient.open("/ws/tournaments/")
    rows = await lobby.next()
    assert rows["type"] == "tournament_rows"
    assert [row["name"] for row in rows["rows"]] == ["Sit and go"]

    def rename() -> None:
        Tournament.objects.filter(pk=tournament.pk).update(name="Sit and go (turbo)")
        changed(tournament.pk)

    await database_sync_to_async(rename)()
    row = await lobby.next()

    assert row["type"] == "tournament_row" and row["row"]["name"] == "Sit and go (turbo)"
    await lobby.close()


async def test_a_moved_player_alone_is_told_the_new_table_and_seat(db: Any) -> None:
    tournament, players, tables = await database_sync_to_async(running_tournament)(4)
    mover = await TournamentClient.open(f"/ws/tournaments/tables/{tables[0].pk}/", players[0])
    other = await TournamentClient.open(f"/ws/tournaments/tables/{tables[0].pk}/", players[1])
    await mover.next()
    await other.next()

    await database_sync_to_async(broadcast.tournament_player_moved)(
        players[0].pk, tournament.pk, tables[1].pk, 5
    )
    notice = await mover.next()

    assert notice == {
        "type": "tournament_moved",
        "tournament_id": tournament.pk,
        "table_id": tables[1].pk,
        "table_number": 2,
        "seat": 5,
        "url": f"/tables/{tables[1].pk}/",
    }
    assert await other.nothing()  # the notice is the mover's alone
    await mover.close()
    await other.close()


async def test_r_tour_7_an_eliminated_player_is_told_the_place_and_prize(db: Any) -> None:
    tournament, players, _ = await database_sync_to_async(running_tournament)(4)
    client = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/", players[2])
    await client.next()

    def eliminate() -> None:
        TournamentEntry.objects.filter(player=players[2]).update(place=3, prize=0)
        broadcast.tournament_player_eliminated(players[2].pk, 3, 0)

    await database_sync_to_async(eliminate)()

    assert await client.next() == {
        "type": "tournament_eliminated",
        "tournament_id": tournament.pk,
        "place": 3,
        "prize": 0,
        "prize_at_end": False,
    }
    await client.close()


async def test_r_tour_9_a_paid_place_is_told_its_prize_comes_at_the_end(db: Any) -> None:
    tournament, players, _ = await database_sync_to_async(running_tournament)(5)
    client = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/", players[0])
    await client.next()

    def second_place() -> None:
        TournamentEntry.objects.filter(player=players[0]).update(place=2)
        broadcast.tournament_player_eliminated(players[0].pk, 2, 0, tournament.pk)

    await database_sync_to_async(second_place)()
    notice = await client.next()

    # 5 entrants: 2 places paid, 65/35 of 5 x $40 (R-TOUR-9).
    assert (notice["place"], notice["prize"], notice["prize_at_end"]) == (2, 7000, True)
    await client.close()


async def test_only_snapshot_and_ping_are_accepted(db: Any) -> None:
    tournament = await database_sync_to_async(make_tournament)()
    client = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/")
    await client.next()

    await client.communicator.send_json_to({"type": "ping", "ref": "a"})
    assert await client.next() == {"type": "pong", "ref": "a"}
    await client.communicator.send_json_to({"type": "snapshot", "ref": 2})
    assert (await client.next())["ref"] == 2
    await client.communicator.send_json_to({"type": "register"})
    assert (await client.next())["code"] == "unknown_type"
    await client.communicator.send_to(text_data="{not json")
    assert (await client.next())["code"] == "bad_json"
    await client.communicator.send_json_to([1])
    assert (await client.next())["code"] == "bad_message"
    await client.close()


async def test_the_protocol_page_lists_exactly_the_tournament_error_codes() -> None:
    from tests.tables.test_codes_documented import codes_in_table
    from tournaments.consumer import TournamentErrorCode

    documented = codes_in_table("protocol.md", "### Tournament errors (`error` frames)")

    assert documented == {code.value for code in TournamentErrorCode}


async def test_issue_22_a_flood_of_snapshots_is_refused_then_the_socket_closed(
    db: Any, settings: Any
) -> None:
    """The tournament socket has the table socket's budget: a burst, then `rate_limited`,
    and a socket that keeps on is closed (4008). The rates are set so that no refill comes
    during the test: the count, not the clock, decides."""
    settings.TABLE_WS_RATE = 0.001
    settings.TABLE_WS_BURST = 3
    settings.TABLE_WS_ABUSE_LIMIT = 4
    tournament = await database_sync_to_async(make_tournament)()
    client = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/")
    await client.next()

    answers = []
    for _ in range(3):
        await client.communicator.send_json_to({"type": "snapshot"})
        answers.append((await client.next())["type"])
    assert answers == ["tournament"] * 3
    refusals = []
    for _ in range(4):
        await client.communicator.send_json_to({"type": "snapshot"})
        refusals.append(await client.next())
    assert [frame["code"] for frame in refusals] == ["rate_limited"] * 4
    assert refusals[0]["message"].endswith("slow down")
    await client.communicator.send_json_to({"type": "snapshot"})
    goodbye = await client.next()
    assert goodbye["code"] == "rate_limited" and goodbye["message"].endswith("goodbye")
    assert await client.next() == {"type": "_closed", "code": 4008}


async def test_issue_22_a_large_message_or_a_long_ref_is_refused_unread(db: Any) -> None:
    tournament = await database_sync_to_async(make_tournament)()
    client = await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/")
    await client.next()

    await client.communicator.send_json_to({"type": "ping", "ref": "x" * 3000})
    assert (await client.next())["code"] == "too_large"
    await client.communicator.send_json_to({"type": "ping", "ref": "x" * 65})
    refused = await client.next()
    assert refused["code"] == "bad_message" and "ref" in refused["message"]
    await client.communicator.send_json_to({"type": "ping", "ref": "x" * 64})
    assert await client.next() == {"type": "pong", "ref": "x" * 64}
    await client.close()


async def test_issue_22_snapshots_asked_again_at_one_seq_are_built_once(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many sockets (or one) asking for the same tournament at the same seq cost one
    database-built snapshot; a change (a new seq) builds the next one at once."""
    from tournaments import consumer, selectors

    built: list[int] = []
    real = selectors.tournament_snapshot

    def counted(tournament: Tournament, *args: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(tournament.seq)
        return real(tournament, *args, **kwargs)

    monkeypatch.setattr(selectors, "tournament_snapshot", counted)
    monkeypatch.setattr(consumer, "SNAPSHOT_CACHE_SECONDS", 3600.0)  # held: the seq decides
    consumer._recent_snapshots.clear()
    tournament = await database_sync_to_async(make_tournament)()
    clients = [await TournamentClient.open(f"/ws/tournaments/{tournament.pk}/") for _ in range(3)]
    frames = [await client.next() for client in clients]
    for client in clients:
        await client.communicator.send_json_to({"type": "snapshot"})
        frames.append(await client.next())
    assert {frame["seq"] for frame in frames} == {tournament.seq}
    assert built == [tournament.seq]
    assert all("clock" in frame["tournament"] for frame in frames)

    await database_sync_to_async(Tournament.objects.filter(pk=tournament.pk).update)(
        seq=tournament.seq + 1
    )
    await clients[0].communicator.send_json_to({"type": "snapshot"})
    assert (await clients[0].next())["seq"] == tournament.seq + 1
    assert built == [tournament.seq, tournament.seq + 1]
    for client in clients:
        await client.close()
