"""Issue #23, part 3: every change proved, Zulip's way (tests/frame_proof.py). For each
service that sends frames, for the player acting, another player and a watcher: the snapshot
before plus the frames that viewer received, applied by the page's own store, equals the
snapshot after; every frame is a declared one; no viewer gets a card they may not see."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import transaction

from accounts.models import Player
from tables import services
from tables.models import Table
from tables.services import tournament_tables
from tables.services.chat import chat_post
from tests.frame_proof import frame_proof
from tests.table_factories import act, engine_of, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db

# The services proved here, by the name the rest of the room calls them.
PROVED = {
    "hand_act",
    "chat_mute_set",
    "hand_start",
    "seat_sit_out",
    "seat_sit_in",
    "seat_add_chips",
    "seat_leave",
    "chat_post",
    "tournament_table_stakes_set",
    "reality_check_idle_send",
    "table_open",
    "table_close",
    "waiting_list_join",
    "waiting_list_leave",
    "waiting_list_offer_expire",
    "hand_time_out",
    "hand_deadlines_sweep",
    "hand_show",
    "seat_set_connected",
    "presence_sweep",
    "seats_heartbeat",
    "auto_ante_turned_on",
    "ante_confirm",
    "player_auto_muck_set",
    "seat_take",
    "tournament_seat_place",
    "tournament_seat_remove",
    "tournament_hand_schedule",
    "tournament_hand_hold",
    "tournament_table_close",
    "tournament_hand_void",
    "tournament_table_cancel",
}


def three_at_a_table() -> tuple[Table, dict[int, Player]]:
    table = make_table()
    players = {number: seated_player(table, seat_number=number) for number in (1, 2, 3)}
    return table, players


def to_act(table: Table, players: dict[int, Player]) -> tuple[Player, Player]:
    """The player to act and another player still in the hand."""
    engine = engine_of(running_hand(table))
    seat = engine.to_act
    assert seat is not None
    other = next(number for number in players if number != seat)
    return players[seat], players[other]


def offered(table: Table, player: Player) -> dict[str, int]:
    hand = running_hand(table)
    engine = engine_of(hand)
    seat = next(int(s) for s, pid in hand.players.items() if pid == player.pk)
    return {offer.kind.value: offer.amount for offer in engine.legal_actions(seat)}


def test_the_deal_is_proved_for_every_viewer(django_capture_on_commit_callbacks, monkeypatch):
    """R-GAME-3: the hand is dealt (antes, down cards to each seat alone, door cards)."""
    table, players = three_at_a_table()
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.hand_start(table_id=table.pk).ok
    proof.check()


@pytest.mark.parametrize("kind", ["bring_in", "complete"])
def test_the_first_action_is_proved_for_every_viewer(
    kind, django_capture_on_commit_callbacks, monkeypatch
):
    """R-BET-1: the bring-in seat brings in, or completes."""
    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, other = to_act(table, players)
    amount = offered(table, actor)[kind]
    with frame_proof(
        table, [actor, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert act(table, actor, kind, amount).ok
    proof.check()


def test_fold_to_one_and_the_hand_end_are_proved_for_every_viewer(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-GAME-5: everyone folds to the bring-in's completion; the last one in wins the pot,
    the hand ends, the next is scheduled."""
    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, _ = to_act(table, players)
    assert act(table, actor, "complete", offered(table, actor)["complete"]).ok
    actor, other = to_act(table, players)
    assert act(table, actor, "fold").ok
    actor, other = to_act(table, players)
    with frame_proof(
        table, [actor, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert act(table, actor, "fold").ok
    proof.check()


def triple_stud_at_the_last_stud_hand() -> tuple[Table, dict[int, Player]]:
    """A Triple Stud table (R-MIX-1) with seven hands dealt: the next is the last Stud hand."""
    table = make_table(triple_stud=True)
    players = {number: seated_player(table, seat_number=number) for number in (1, 2, 3)}
    Table.objects.filter(pk=table.pk).update(hands_dealt=7)
    return table, players


def everyone_folds_to_the_last(table: Table, players: dict[int, Player]) -> Player:
    """The bring-in completes and the next folds: the last one to fold ends the hand."""
    actor, _ = to_act(table, players)
    assert act(table, actor, "complete", offered(table, actor)["complete"]).ok
    actor, _ = to_act(table, players)
    assert act(table, actor, "fold").ok
    actor, _ = to_act(table, players)
    return actor


def test_r_mix_1_the_deal_at_a_triple_stud_table_tells_every_page_the_rotation(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-MIX-1: the 8th hand is dealt: every viewer's header turns from "next hand Stud · then
    Razz" to "now Stud · next hand Razz" from the frames, as the snapshot after says."""
    table, players = triple_stud_at_the_last_stud_hand()
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.hand_start(table_id=table.pk).ok
    proof.check()
    (header,) = {after["table"]["game_label"] for after in proof.after}
    assert header == "Triple Stud · now Stud · next hand Razz"


def test_r_mix_1_the_hand_end_at_a_triple_stud_table_tells_every_page_the_next_game(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-MIX-1: the last Stud hand ends: every viewer's header says the next hand is Razz
    (seven more after it before Stud Hi/Lo) from the hand's own frames, no snapshot asked."""
    table, players = triple_stud_at_the_last_stud_hand()
    assert services.hand_start(table_id=table.pk).ok
    last = everyone_folds_to_the_last(table, players)
    other = next(player for player in players.values() if player != last)
    with frame_proof(
        table, [last, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert act(table, last, "fold").ok
    proof.check()
    (header,) = {after["table"]["game_label"] for after in proof.after}
    assert header == "Triple Stud · next hand Razz · 7 more before Stud Hi/Lo"


def test_sitting_out_and_in_are_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-SIT-1, between hands."""
    table, players = three_at_a_table()
    viewers = [players[1], players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.seat_sit_out(table_id=table.pk, player=players[1]).ok
    proof.check()
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.seat_sit_in(table_id=table.pk, player=players[1]).ok
    proof.check()


def test_adding_chips_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-BUY-2, between hands."""
    table, players = three_at_a_table()
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.seat_add_chips(table_id=table.pk, player=players[1], amount=500).ok
    proof.check()


def test_leaving_mid_hand_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-BUY-1: a player leaves during the hand: folded, cashed out. Their own page draws
    the hand as a watcher's from the frames (their down cards gone, as the snapshot after
    has it; found by this proof, issue #23: they stayed until a snapshot)."""
    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, other = to_act(table, players)
    with frame_proof(
        table, [actor, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.seat_leave(table_id=table.pk, player=other).ok
    proof.check()


def test_chat_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    table, players = three_at_a_table()
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert chat_post(table_id=table.pk, player=players[1], text="nice hand").ok
    proof.check()


def test_a_stakes_change_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-TOUR-5: a tournament table's next hand is dealt at the new level; every viewer's
    page shows the new stakes from the `stakes` frame."""
    with transaction.atomic():
        lock = tournament_tables.tournament_table_open(
            name="Final",
            game="stud",
            ante=5,
            bring_in=10,
            small_bet=20,
            big_bet=40,
            dealer_only_ante=False,
            action_clock=10,
            time_bank=30,
        )
        table = lock.table
        alice, bob = seated_player_ids = [tournament_seat(lock, number) for number in (1, 2)]
        del seated_player_ids
        tournament_tables.tournament_tables_finish({table.pk: lock})
    with (
        frame_proof(
            table, [alice, bob, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        transaction.atomic(),
    ):
        [lock] = tournament_tables.tournament_tables_lock([table.pk]).values()
        assert tournament_tables.tournament_table_stakes_set(
            lock, ante=10, bring_in=20, small_bet=40, big_bet=80, dealer_only_ante=False
        )
        tournament_tables.tournament_tables_finish({table.pk: lock})
    proof.check()


def tournament_seat(lock: tournament_tables.TournamentTableLock, number: int) -> Player:
    from tests.factories import PlayerFactory

    player = PlayerFactory()
    tournament_tables.tournament_seat_place(lock, player_id=player.pk, number=number, stack=800)
    return player


def test_issue_26_a_reality_check_between_hands_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Issue #26: a player seated between hands, an hour into their session, gets the
    reality check from the clock sweep: to them alone, and no one's table changes."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.models import PlaySession

    table, players = three_at_a_table()
    now = timezone.now()
    session = PlaySession.objects.create(
        player=players[1],
        started_at=now - timedelta(minutes=61),
        last_played_at=now - timedelta(minutes=1),
        checked_from=now - timedelta(minutes=61),
    )
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.reality_check_idle_send(session_id=session.pk, table_id=table.pk, now=now)
    proof.check()
    assert [frame["type"] for frame in proof.received(players[1])] == ["reality_check"]
    assert proof.received(players[2]) == []


def test_a_mute_sends_no_frame_and_changes_no_ones_table(
    django_capture_on_commit_callbacks, monkeypatch
):
    """Muting is kept on the account: nothing is broadcast, every viewer's table is as it was."""
    table, players = three_at_a_table()
    with frame_proof(
        table, [players[1], players[2], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.chat_mute_set(
            table_id=table.pk, player=players[1], muted_id=players[2].pk, on=True
        ).ok
    proof.check(sends_frames=False)


# The frame-sending services the proof does not cover yet (issue #23's list, part 3): none
# now. A new service that sends frames must be proved above and listed in PROVED, or it
# fails test_every_frame_sending_service_is_proved.
NOT_YET_PROVED: set[str] = set()


def frame_sending_services() -> set[str]:
    """The table services a client's frames come from: every public function of
    tables.services (and of its tournament tables) that changes a table (a table change or
    a tournament table's lock, whose outbox broadcasts) or broadcasts itself."""
    import inspect

    from tables.services import chat

    found = set()
    for module in (services, tournament_tables, chat):
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if not function.__module__.startswith("tables.services"):
                continue
            source = inspect.getsource(function)
            if any(
                sign in source
                for sign in ("table_change(", "lock.outbox", "broadcast(", "outbox.result")
            ):
                found.add(name)
    return found


def test_every_frame_sending_service_is_proved() -> None:
    sending = frame_sending_services()
    # The transport itself, not a change: it sends what the services built.
    transport = {"broadcast", "tournament_tables_finish"}
    unlisted = sending - PROVED - NOT_YET_PROVED - transport
    assert unlisted == set(), f"services that send frames without the proof: {unlisted}"
    assert set() == PROVED & NOT_YET_PROVED
    assert {"hand_act", "chat_post", "tournament_table_stakes_set"} <= sending


# --- part 3, the rest: the player-facing services -------------------------------------------


def a_player(balance: int = 10_000, **fields: object) -> Player:
    from tests.factories import PlayerFactory, funded

    player = PlayerFactory(**fields)
    funded(player, balance)
    return player


def full_table_of_two() -> tuple[Table, dict[int, Player]]:
    table = make_table(seats=2)
    players = {number: seated_player(table, seat_number=number) for number in (1, 2)}
    return table, players


def test_joining_and_leaving_the_waiting_list_are_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """A full table's waiting list: a watcher joins it, then leaves it; every page's list
    follows from the `waiting_list` frames."""
    table, players = full_table_of_two()
    waiter = a_player()
    viewers = [waiter, players[1], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.waiting_list_join(table_id=table.pk, player=waiter).ok
    proof.check()
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.waiting_list_leave(table_id=table.pk, player=waiter).ok
    proof.check()


def test_a_lapsed_seat_offer_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """A seat frees: the first in line is offered it; the offer lapses, the next in line is
    offered it (every page's waiting list and seats as the snapshot after has them)."""
    from datetime import timedelta

    from tables.models import WaitingListEntry

    table, players = full_table_of_two()
    first, second = a_player(), a_player()
    assert services.waiting_list_join(table_id=table.pk, player=first).ok
    assert services.waiting_list_join(table_id=table.pk, player=second).ok
    viewers = [first, second, players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.seat_leave(table_id=table.pk, player=players[1]).ok
    proof.check()
    entry = WaitingListEntry.objects.get(table=table, player=first)
    assert entry.offered_until is not None
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.waiting_list_offer_expire(
            entry_id=entry.pk, now=entry.offered_until + timedelta(seconds=1)
        ).ok
    proof.check()


def test_r_time_1_a_clock_running_out_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-TIME-1: the bring-in's clock runs out (the time bank is off): the room acts for
    them; every viewer's hand goes on from the frames."""
    from datetime import timedelta

    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, other = to_act(table, players)
    hand = running_hand(table)
    assert hand.action_deadline is not None
    with frame_proof(
        table, [actor, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.hand_time_out(
            hand_id=hand.pk,
            expected_seq=hand.seq,
            now=hand.action_deadline + timedelta(milliseconds=1),
        ).ok
    proof.check()


def test_r_time_1_the_sweep_running_a_lapsed_clock_out_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-TIME-1 through the clock sweep (a lost clock task): the same frames, the same pages."""
    from datetime import timedelta

    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, other = to_act(table, players)
    hand = running_hand(table)
    assert hand.action_deadline is not None
    with frame_proof(
        table, [actor, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        applied = services.hand_deadlines_sweep(
            now=hand.action_deadline + timedelta(milliseconds=1)
        )
        assert applied >= 1
    proof.check()


def test_r_show_3_showing_by_choice_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-SHOW-3: the bring-in completes and the others fold: the winner nobody called shows
    their cards after the hand; every page shows them from the `show` event."""
    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    winner, _ = to_act(table, players)
    assert act(table, winner, "complete", offered(table, winner)["complete"]).ok
    for _ in range(2):
        folder, _ = to_act(table, players)
        assert act(table, folder, "fold").ok
    hand = Table.objects.get(pk=table.pk).hands.order_by("-number").first()
    assert hand is not None and hand.ended_at is not None
    other = next(p for p in players.values() if p != winner)
    with frame_proof(
        table, [winner, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.hand_show(table_id=table.pk, player=winner, hand_id=hand.pk).ok
    proof.check()


def test_a_player_connecting_and_going_away_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-TIME-3: presence. A seat taken is presumed connected; the player's last connection
    closing shows them gone, their next one back, on every page."""
    table, players = three_at_a_table()
    viewers = [players[1], players[2], None]
    for connected in (False, True):
        with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
            assert services.seat_set_connected(
                table_id=table.pk, player=players[1], connected=connected
            ).ok
        proof.check()


def test_the_presence_sweep_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-TIME-3: a connection whose process died: the sweep shows the player gone."""
    from django.utils import timezone

    from tables.models import PRESENCE_STALE

    table, players = three_at_a_table()
    then = timezone.now() - PRESENCE_STALE
    assert services.seat_set_connected(
        table_id=table.pk, player=players[1], connected=True, now=then
    ).ok
    viewers = [players[1], players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.presence_sweep(now=then + PRESENCE_STALE) == 1
    proof.check()


def test_a_heartbeat_sends_nothing_and_changes_no_ones_table(
    django_capture_on_commit_callbacks, monkeypatch
):
    """An open connection's heartbeat keeps its count fresh: nothing to show, nothing sent."""
    table, players = three_at_a_table()
    assert services.seat_set_connected(table_id=table.pk, player=players[1], connected=True).ok
    viewers = [players[1], players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.seats_heartbeat(seats=[(table.pk, players[1].pk)]) == {
            (table.pk, players[1].pk)
        }
    proof.check(sends_frames=False)


def test_r_ante_1_im_in_switched_on_away_from_the_table_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-ANTE-1: the table waits for bob's "I'm in" (too few others to deal without him);
    he switches it on in his settings: every page shows the hand scheduled."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2, auto_ante=False)
    table.refresh_from_db()
    assert (
        services.hand_start(table_id=table.pk, now=table.next_hand_at, only_when_due=True).status
        == "skipped"
    )
    with frame_proof(
        table, [bob, alice, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        Player.objects.filter(pk=bob.pk).update(auto_ante=True)  # the settings page's write
        assert all(result.ok for result in services.auto_ante_turned_on(player_id=bob.pk))
    proof.check()


def test_taking_a_seat_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-BUY-1: a player watching sits down between hands: everyone's seats show them."""
    table, players = three_at_a_table()
    newcomer = a_player()
    with frame_proof(
        table, [newcomer, players[1], None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.seat_take(
            table_id=table.pk, player=newcomer, buy_in=table.buy_in, seat_number=4
        ).ok
    proof.check()


def test_r_show_3_the_auto_muck_setting_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-SHOW-3's "muck losing hands", set at the table: the player's own page shows it."""
    table, players = three_at_a_table()
    viewers = [players[1], players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.player_auto_muck_set(
            table_id=table.pk, player=players[1], auto_muck=not players[1].auto_muck
        ).ok
    proof.check()


def test_r_ante_1_im_in_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-ANTE-1: two players post antes by hand; one says "I'm in" during the countdown:
    every page stops naming them among the seats awaited."""
    table = make_table()
    alice = seated_player(table, seat_number=1)
    bob = seated_player(table, seat_number=2, auto_ante=False)
    carol = seated_player(table, seat_number=3, auto_ante=False)
    with frame_proof(
        table, [bob, carol, alice, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.ante_confirm(table_id=table.pk, player=bob).ok
    proof.check()


@pytest.mark.parametrize("mid_hand", [False, True], ids=["between_hands", "mid_hand"])
def test_closing_and_opening_a_table_are_proved(
    mid_hand, django_capture_on_commit_callbacks, monkeypatch
):
    """Staff close the table (between hands: every seat cashed out at once; mid-hand: the
    hand finishes first), then open it again."""
    table, players = three_at_a_table()
    if mid_hand:
        assert services.hand_start(table_id=table.pk).ok
    viewers = [players[1], players[2], None]
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.table_close(table_id=table.pk).ok
    proof.check()
    if mid_hand:
        winner = everyone_folds_to_the_last(table, players)
        with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
            assert act(table, winner, "fold").ok
        proof.check()
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.table_open(table_id=table.pk).ok
    proof.check()
    assert all(after["table"]["is_open"] for after in proof.after)


# --- part 3, the tournament's steps at its tables ------------------------------------------


def a_tournament_table(players: int = 2) -> tuple[Table, list[Player]]:
    """A tournament table (R-TOUR-8) with `players` seated by the draw, nothing scheduled."""
    with transaction.atomic():
        lock = tournament_tables.tournament_table_open(
            name="Table 1",
            game="stud",
            ante=5,
            bring_in=10,
            small_bet=20,
            big_bet=40,
            dealer_only_ante=False,
            action_clock=10,
            time_bank=30,
        )
        seated = [tournament_seat(lock, number) for number in range(1, players + 1)]
        tournament_tables.tournament_tables_finish({lock.table.pk: lock})
    return lock.table, seated


@contextmanager
def tournament_step(table: Table) -> Iterator[tournament_tables.TournamentTableLock]:
    """One of the tournament's transactions at this table: locked, changed, its frames
    registered to go out after the commit."""
    with transaction.atomic():
        [lock] = tournament_tables.tournament_tables_lock([table.pk]).values()
        yield lock
        tournament_tables.tournament_tables_finish({table.pk: lock})


def test_r_tour_2_a_seat_drawn_or_moved_in_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-TOUR-2/3: a player is seated at the table (a move): their page shows their seat,
    the others' the new seat."""
    table, (alice, _bob) = a_tournament_table()
    from tests.factories import PlayerFactory

    carol = PlayerFactory()
    with (
        frame_proof(
            table, [carol, alice, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        tournament_step(table) as lock,
    ):
        tournament_tables.tournament_seat_place(lock, player_id=carol.pk, number=3, stack=800)
    proof.check()


def test_r_tour_3_a_seat_moved_away_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """R-TOUR-3: a seat leaves the table between hands (moved, eliminated): its player's
    page becomes a watcher's, the others' seats lose it."""
    table, (alice, _bob, carol) = a_tournament_table(3)
    with (
        frame_proof(
            table, [carol, alice, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        tournament_step(table) as lock,
    ):
        tournament_tables.tournament_seat_remove(lock, seat=lock.seats()[3])
    proof.check()


def test_r_tour_5_the_next_deal_scheduled_and_held_are_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """The tournament schedules the table's next hand, then holds it (a break): every page
    shows the hand due, then none."""
    from django.utils import timezone

    table, (alice, bob) = a_tournament_table()
    viewers = [alice, bob, None]
    with (
        frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof,
        tournament_step(table) as lock,
    ):
        assert tournament_tables.tournament_hand_schedule(lock, now=timezone.now(), pause=3)
    proof.check()
    assert all(after["next_hand_at"] for after in proof.after)
    with (
        frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof,
        tournament_step(table) as lock,
    ):
        assert tournament_tables.tournament_hand_hold(lock)
    proof.check()


def test_r_tour_4_a_table_closed_by_the_merge_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-TOUR-4: the table's players are moved to the final table and it closes: every page
    shows it closed."""
    table, (alice, bob) = a_tournament_table()
    with (
        frame_proof(
            table, [alice, bob, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        tournament_step(table) as lock,
    ):
        for seat in lock.seats().values():
            tournament_tables.tournament_seat_remove(lock, seat=seat)
        tournament_tables.tournament_table_close(lock)
    proof.check()


@pytest.mark.parametrize("mid_hand", [False, True], ids=["between_hands", "mid_hand"])
def test_a_cancelled_tournaments_table_is_proved(
    mid_hand, django_capture_on_commit_callbacks, monkeypatch
):
    """The tournament is cancelled: the hand in play, if any, ends void (nobody wins it), the
    seats go, the table closes: every page shows it so."""
    from django.utils import timezone

    table, (alice, bob) = a_tournament_table()
    if mid_hand:
        assert services.hand_start(table_id=table.pk).ok
    with (
        frame_proof(
            table, [alice, bob, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        tournament_step(table) as lock,
    ):
        tournament_tables.tournament_table_cancel(lock, now=timezone.now())
    proof.check()


def test_a_void_hand_is_proved(django_capture_on_commit_callbacks, monkeypatch):
    """The hand in play ends void (its tournament cancelled): every page's hand ends, the
    stacks as they were dealt."""
    from django.utils import timezone

    table, (alice, bob) = a_tournament_table()
    assert services.hand_start(table_id=table.pk).ok
    with (
        frame_proof(
            table, [alice, bob, None], django_capture_on_commit_callbacks, monkeypatch
        ) as proof,
        tournament_step(table) as lock,
    ):
        assert tournament_tables.tournament_hand_void(
            lock, now=timezone.now(), why=tournament_tables.VOID_TOURNAMENT_CANCELLED
        )
    proof.check()


def test_r_time_1_all_in_protection_on_a_clock_running_out_is_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-TIME-1/2: the player facing a bet lets their clock run out: all-in protection plays
    them all in and one of their two protections of the day is spent; their page says so."""
    from datetime import timedelta

    table, players = three_at_a_table()
    assert services.hand_start(table_id=table.pk).ok
    actor, _ = to_act(table, players)
    assert act(table, actor, "complete", offered(table, actor)["complete"]).ok
    facing, other = to_act(table, players)
    hand = running_hand(table)
    assert hand.action_deadline is not None
    with frame_proof(
        table, [facing, other, None], django_capture_on_commit_callbacks, monkeypatch
    ) as proof:
        assert services.hand_time_out(
            hand_id=hand.pk,
            expected_seq=hand.seq,
            now=hand.action_deadline + timedelta(milliseconds=1),
        ).ok
    proof.check()
    spent = [view["viewer"]["all_in_protection_left"] for view in (proof.before[0], proof.after[0])]
    assert spent[1] == spent[0] - 1, spent


def test_r_bet_7_the_time_bank_starting_and_running_out_are_proved(
    django_capture_on_commit_callbacks, monkeypatch
):
    """R-BET-7: the action clock runs out and the player's time bank runs (a `time_bank`
    frame); then the bank runs out too (R-TIME-1): every page follows."""
    from datetime import timedelta

    table = make_table(time_bank=30)
    players = {number: seated_player(table, seat_number=number) for number in (1, 2, 3)}
    assert services.hand_start(table_id=table.pk).ok
    actor, other = to_act(table, players)
    viewers = [actor, other, None]
    hand = running_hand(table)
    assert hand.action_deadline is not None
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.hand_time_out(
            hand_id=hand.pk,
            expected_seq=hand.seq,
            now=hand.action_deadline + timedelta(milliseconds=1),
        ).ok
    proof.check()
    hand.refresh_from_db()
    assert hand.time_bank_seat is not None and hand.action_deadline is not None
    with frame_proof(table, viewers, django_capture_on_commit_callbacks, monkeypatch) as proof:
        assert services.hand_time_out(
            hand_id=hand.pk,
            expected_seq=hand.seq,
            now=hand.action_deadline + timedelta(milliseconds=1),
        ).ok
    proof.check()
