"""Issue #26, item 2: reality checks. Every N minutes of a play session (the player's
setting, 60 by default) the table tells the player their time played, net result and rake
paid; only when a hand they are in has ended, or between hands when they sit dealt into
none; each check once. The clock is the services' `now` (never the wall clock)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.limits import play_limit_set
from accounts.models import Player
from tables import services
from tables.models import HandPlayer, PlaySession, RakeEntry, RakeSchedule, RealityCheck, Seat
from tables.services import outbox as outbox_module
from tables.services import scheduling
from tables.services.results import Frames, TableResult
from tests.history_hands import hold_scheduling, play_hand, raked_hand
from tests.table_factories import act, make_table, running_hand, seated_player

pytestmark = pytest.mark.django_db

SMALL = "$0.50/$1 and $1/$2"
HEADS_UP = "As 2c Ad 7d Ah 5c"


class Notices:
    """The reality_check frames each player's own group received, in order."""

    def __init__(self) -> None:
        self.by_player: dict[int, list[dict[str, Any]]] = {}

    def record(self, *, table_id: int, frames: Frames) -> None:
        for player_id, sent in frames.users_json.items():
            for frame in sent:
                if frame["type"] == "reality_check":
                    self.by_player.setdefault(player_id, []).append(frame)

    def of(self, player: Player) -> list[dict[str, Any]]:
        return self.by_player.get(player.pk, [])


@pytest.fixture
def notices(monkeypatch) -> Notices:
    """Each change's frames, as its outbox hands them to the broadcast after the commit."""
    hold_scheduling(monkeypatch)
    seen = Notices()
    built = outbox_module.Outbox.result

    def result(self: outbox_module.Outbox, **kwargs: Any) -> TableResult:
        answer = built(self, **kwargs)
        seen.record(table_id=answer.table_id, frames=answer.frames)
        return answer

    monkeypatch.setattr(outbox_module.Outbox, "result", result)
    return seen


def heads_up(**table_fields: Any) -> tuple[Any, dict[int, Player], datetime]:
    """Two players seated, and the time the test's clock starts (after they sat down)."""
    table = make_table(**table_fields)
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2)}
    return table, players, timezone.now()


def a_hand(table: Any, players: dict[int, Player], at: datetime) -> None:
    """A heads-up hand dealt and played to its end (check or call) at `at`."""
    play_hand(table, players, HEADS_UP, now=at)


def sweep_reality_checks(now: datetime) -> int:
    """The clock sweep's reality-check kind alone, at `now` (the other kinds are the action
    clocks and the next deal, which these tests drive themselves)."""
    kind = scheduling.DEADLINE_KINDS["reality_check"]
    applied = 0
    for deadline, _table_id, args in kind.due(now):
        if deadline <= now and kind.apply(*args, now=now):
            applied += 1
    return applied


def test_issue_26_the_check_comes_every_60_minutes_by_default(notices):
    table, players, t0 = heads_up()
    alice = players[1]
    a_hand(table, players, t0)
    a_hand(table, players, t0 + timedelta(minutes=59))
    assert notices.of(alice) == []
    a_hand(table, players, t0 + timedelta(minutes=60, seconds=5))
    (notice,) = notices.of(alice)
    assert notice["minutes_played"] == 60
    assert notice["every_minutes"] == 60
    assert notice["table_id"] == table.pk
    assert len(notices.of(players[2])) == 1


def test_issue_26_a_check_is_sent_once_then_again_n_minutes_later(notices):
    table, players, t0 = heads_up()
    alice = players[1]
    a_hand(table, players, t0)
    a_hand(table, players, t0 + timedelta(minutes=61))
    a_hand(table, players, t0 + timedelta(minutes=62))
    a_hand(table, players, t0 + timedelta(minutes=120))
    assert [n["minutes_played"] for n in notices.of(alice)] == [61]
    a_hand(table, players, t0 + timedelta(minutes=121, seconds=30))
    assert [n["minutes_played"] for n in notices.of(alice)] == [61, 121]
    checks = RealityCheck.objects.filter(player=alice).order_by("number")
    assert [(c.number, c.minutes_played, c.table_id) for c in checks] == [
        (1, 61, table.pk),
        (2, 121, table.pk),
    ]
    # Nothing the clock sweep finds due afterwards sends it a second time.
    assert sweep_reality_checks(t0 + timedelta(minutes=122)) == 0


def test_issue_26_it_waits_for_the_end_of_the_hand_never_during_a_turn(notices):
    table, players, t0 = heads_up()
    alice, bob = players[1], players[2]
    a_hand(table, players, t0)
    # A hand dealt at 59 minutes is still being played at 61: no check yet, from an action
    # or from the clock sweep.
    late = t0 + timedelta(minutes=59)
    assert services.hand_start(table_id=table.pk, now=late).ok
    hand = running_hand(table)
    played = {int(seat): players[int(seat)] for seat in hand.players}
    first = played[_to_act(hand)]
    kind = "bring_in" if first == bob else "complete"
    assert act(table, first, kind, _offer(hand, kind), now=late + timedelta(minutes=2)).ok
    assert sweep_reality_checks(late + timedelta(minutes=2)) == 0
    assert notices.of(alice) == [] and notices.of(bob) == []
    # The hand ends (the other folds): then it comes, to both.
    other = bob if first == alice else alice
    assert act(table, other, "fold", now=late + timedelta(minutes=3)).ok
    assert [n["minutes_played"] for n in notices.of(alice)] == [62]
    assert len(notices.of(bob)) == 1


def test_issue_26_the_figures_are_the_sessions_time_net_and_rake_split_by_chips_put_in(
    notices,
):
    """Two raked hands: alice bets every street and wins, bob calls down, carol folds at
    her first turn (an ante, perhaps the bring-in, in the pot). The notice's net is each
    one's chips now less their buy-in; the rake paid adds up to the room's rake entries,
    split by what each put in: carol's few cents cost her next to nothing of it."""
    table = make_table(rake_schedule=RakeSchedule.objects.get(name=SMALL))
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2, 3)}
    t0 = timezone.now()
    raked_hand(table=table, now=t0, players=players)
    raked_hand(table=table, now=t0 + timedelta(minutes=60), players=players)
    rake = sum(RakeEntry.objects.filter(table=table).values_list("amount", flat=True))
    assert rake > 0
    shown = {seat: notices.of(player)[-1] for seat, player in players.items()}
    for seat, player in players.items():
        stack = Seat.objects.get(table=table, player=player).stack
        assert shown[seat]["net"] == stack - table.buy_in
        assert shown[seat]["minutes_played"] == 60
    assert shown[3]["net"] < 0  # carol: what she put in before folding
    assert sum(notice["net"] for notice in shown.values()) == -rake
    assert sum(notice["rake_paid"] for notice in shown.values()) == rake
    # Her few cents of a ~$16 pot, each hand: a tenth of theirs at most.
    assert shown[3]["rake_paid"] * 10 <= min(shown[1]["rake_paid"], shown[2]["rake_paid"])
    assert abs(shown[1]["rake_paid"] - shown[2]["rake_paid"]) <= 2
    per_hand = HandPlayer.objects.filter(hand__table=table, player=players[3])
    assert sum(per_hand.values_list("rake_paid", flat=True)) == shown[3]["rake_paid"]


def test_issue_26_a_shorter_setting_takes_effect_at_once_a_longer_after_24_hours(notices):
    table, players, t0 = heads_up()
    alice, bob = players[1], players[2]
    play_limit_set(player_id=alice.pk, kind="reality_check", amount=15, now=t0)
    limit = play_limit_set(player_id=bob.pk, kind="reality_check", amount=90, now=t0)
    assert limit.raise_pending  # less often: only in 24 hours
    a_hand(table, players, t0)
    a_hand(table, players, t0 + timedelta(minutes=15))
    assert [(n["minutes_played"], n["every_minutes"]) for n in notices.of(alice)] == [(15, 15)]
    assert notices.of(bob) == []
    a_hand(table, players, t0 + timedelta(minutes=30))
    a_hand(table, players, t0 + timedelta(minutes=60))
    assert [n["minutes_played"] for n in notices.of(alice)] == [15, 30, 60]
    assert [(n["minutes_played"], n["every_minutes"]) for n in notices.of(bob)] == [(60, 60)]


def test_issue_26_the_setting_is_5_to_240_minutes():
    from accounts.limits import PlayLimitInvalid
    from tests.factories import PlayerFactory

    player = PlayerFactory()
    for minutes in (4, 241):
        with pytest.raises(PlayLimitInvalid, match="every 5 to 240 minutes"):
            play_limit_set(player_id=player.pk, kind="reality_check", amount=minutes)


def test_issue_26_a_player_seated_between_hands_gets_it_from_the_clock_sweep(notices):
    """Bob left after their hand; alice sits alone waiting for players: at 60 minutes the
    sweep shows her the check at her table (no hand to wait for)."""
    table, players, t0 = heads_up()
    alice, bob = players[1], players[2]
    a_hand(table, players, t0)
    assert services.seat_leave(table_id=table.pk, player=bob).ok
    assert sweep_reality_checks(t0 + timedelta(minutes=59)) == 0
    assert sweep_reality_checks(t0 + timedelta(minutes=60)) == 1
    (notice,) = notices.of(alice)
    assert notice["minutes_played"] == 60 and notice["table_id"] == table.pk
    check = RealityCheck.objects.get(player=alice)
    assert check.hand is None and check.number == 1
    assert sweep_reality_checks(t0 + timedelta(minutes=61)) == 0  # once
    assert notices.of(bob) == []  # he left: no table to show it at


def test_issue_26_a_session_ends_after_30_minutes_without_play(notices):
    table, players, t0 = heads_up()
    alice = players[1]
    a_hand(table, players, t0)
    for player in players.values():
        assert services.seat_leave(table_id=table.pk, player=player).ok
    # Back 40 minutes later at another table: a new session, counted from its first hand.
    other = make_table()
    seat = 1
    for player in players.values():
        assert services.seat_take(
            table_id=other.pk, player=player, buy_in=other.buy_in, seat_number=seat
        ).ok
        seat += 1
    a_hand(other, players, t0 + timedelta(minutes=40))
    a_hand(other, players, t0 + timedelta(minutes=60))
    assert notices.of(alice) == []
    a_hand(other, players, t0 + timedelta(minutes=100))
    (notice,) = notices.of(alice)
    assert notice["minutes_played"] == 60 and notice["table_id"] == other.pk
    assert PlaySession.objects.filter(player=alice).count() == 2


def _to_act(hand: Any) -> int:
    from tests.table_factories import engine_of

    seat = engine_of(hand).to_act
    assert seat is not None
    return seat


def _offer(hand: Any, kind: str) -> int:
    from tests.table_factories import engine_of

    engine = engine_of(hand)
    return next(o.amount for o in engine.legal_actions(_to_act(hand)) if o.kind.value == kind)


def test_issue_26_the_sweep_reads_only_the_latest_session(notices):
    """An earlier session of the day, over, is never checked again: only the session the
    player is in counts, and it was checked a minute ago."""
    table, players, t0 = heads_up()
    alice = players[1]
    earlier = PlaySession.objects.create(
        player=alice,
        started_at=t0 - timedelta(hours=5),
        last_played_at=t0 - timedelta(hours=4),
        checked_from=t0 - timedelta(hours=5),
    )
    a_hand(table, players, t0)
    current = PlaySession.objects.filter(player=alice).exclude(pk=earlier.pk).get()
    PlaySession.objects.filter(pk=current.pk).update(checked_from=t0 + timedelta(minutes=59))
    assert services.seat_leave(table_id=table.pk, player=players[2]).ok
    assert scheduling.DEADLINE_KINDS["reality_check"].due(t0 + timedelta(minutes=60)) == []
    assert sweep_reality_checks(t0 + timedelta(minutes=60)) == 0
    assert notices.of(alice) == []
