"""Issue #26: limits a player sets, enforced by the wallet (ledger-backed) wherever money is
staked: a table's buy-in and add chips, a tournament's registration. Lowering takes effect at
once, raising or removing after 24 hours; a stake over a limit is refused with the limit
named and when it resets, and nothing else changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.limits import in_force, play_limit_set, used_toward
from accounts.models import LedgerEntry, PlayLimit, PlayLimitKind
from tables import services
from tables.models import Seat
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table
from tests.tournaments.money_helpers import make_tournament
from tournaments.services.entries import tournament_register
from tournaments.services.refusals import TournamentRefusal, TournamentRefused

pytestmark = pytest.mark.django_db

MONEY_KINDS = [
    kind
    for kind in PlayLimitKind
    if kind not in (PlayLimitKind.SESSION_MINUTES, PlayLimitKind.REALITY_CHECK)
]


def test_lowering_a_limit_is_at_once_raising_or_removing_it_waits_24_hours():
    player = PlayerFactory()
    now = timezone.now()
    play_limit_set(player_id=player.pk, kind="buy_in_day", amount=5000, now=now)
    limit = play_limit_set(player_id=player.pk, kind="buy_in_day", amount=3000, now=now)
    assert in_force(limit, now) == 3000
    limit = play_limit_set(player_id=player.pk, kind="buy_in_day", amount=9000, now=now)
    assert in_force(limit, now + timedelta(hours=23, minutes=59)) == 3000
    assert in_force(limit, now + timedelta(hours=24)) == 9000
    limit = play_limit_set(player_id=player.pk, kind="buy_in_day", amount=None, now=now)
    assert limit.raise_pending and in_force(limit, now + timedelta(hours=24)) is None


def test_a_buy_in_over_the_days_limit_is_refused_naming_it_and_nothing_changes():
    table = make_table()
    player = PlayerFactory()
    funded(player, 10_000)
    play_limit_set(player_id=player.pk, kind="buy_in_day", amount=3000)
    before = list(LedgerEntry.objects.filter(player=player).values_list("pk", flat=True))

    refused = services.seat_take(table_id=table.pk, player=player, buy_in=4000)

    assert not refused.ok and refused.error == "play_limit"
    assert "limit of $30.00 on buy-ins a day" in refused.message
    assert "resets at" in refused.message and "New York time" in refused.message
    player.refresh_from_db()
    assert player.balance == 10_000 and not Seat.objects.filter(player=player).exists()
    assert list(LedgerEntry.objects.filter(player=player).values_list("pk", flat=True)) == before


def test_add_chips_counts_with_the_buy_in():
    table = make_table()
    player = PlayerFactory()
    funded(player, 10_000)
    play_limit_set(player_id=player.pk, kind="buy_in_week", amount=3000)
    assert services.seat_take(table_id=table.pk, player=player, buy_in=2000).ok
    refused = services.seat_add_chips(table_id=table.pk, player=player, amount=1500)
    assert refused.error == "play_limit" and "buy-ins a week" in refused.message
    assert services.seat_add_chips(table_id=table.pk, player=player, amount=1000).ok


def test_the_loss_limit_is_net_of_cash_outs():
    table = make_table()
    player = PlayerFactory()
    funded(player, 10_000)
    play_limit_set(player_id=player.pk, kind="loss_day", amount=3000)
    assert services.seat_take(table_id=table.pk, player=player, buy_in=2000).ok
    assert services.seat_leave(table_id=table.pk, player=player).ok  # $20 back
    assert used_toward("loss_day", player.pk, timezone.now()) == 0
    assert services.seat_take(table_id=table.pk, player=player, buy_in=3000).ok
    refused = services.seat_add_chips(table_id=table.pk, player=player, amount=100)
    assert refused.error == "play_limit" and "losses a day" in refused.message


def test_a_tournament_registration_over_a_limit_is_refused_and_takes_nothing():
    tournament = make_tournament(buy_in=4000, fee=400)
    player = PlayerFactory()
    funded(player, 10_000)
    play_limit_set(player_id=player.pk, kind="buy_in_month", amount=4000)
    with pytest.raises(TournamentRefused) as refused:
        tournament_register(tournament_id=tournament.pk, player=player)
    assert refused.value.code == TournamentRefusal.PLAY_LIMIT
    assert "buy-ins a month" in str(refused.value)
    player.refresh_from_db()
    assert player.balance == 10_000 and tournament.entries.count() == 0


def test_a_session_longer_than_its_limit_takes_no_more_stakes():
    table = make_table()
    player = PlayerFactory()
    funded(player, 10_000)
    play_limit_set(player_id=player.pk, kind="session_minutes", amount=0)
    assert services.seat_take(table_id=table.pk, player=player, buy_in=2000).ok
    refused = services.seat_add_chips(table_id=table.pk, player=player, amount=500)
    assert refused.error == "play_limit" and "session length limit of 0 minutes" in refused.message


operations = st.lists(
    st.one_of(
        st.tuples(st.just("sit"), st.integers(2000, 4000)),
        st.tuples(st.just("add"), st.integers(1, 3000)),
        st.tuples(st.just("leave"), st.just(0)),
        st.tuples(st.just("register"), st.just(0)),
        st.tuples(
            st.sampled_from([k.value for k in MONEY_KINDS]), st.none() | st.integers(0, 9000)
        ),
    ),
    max_size=14,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_no_sequence_of_stakes_and_limit_changes_passes_a_limit_in_force(ops):
    """The property: after every stake the room accepted, each money limit in force holds
    (what counts toward it is at most the limit)."""
    table = make_table()
    player = PlayerFactory()
    funded(player, 100_000)
    for name, value in ops:
        if name == "sit":
            ok = services.seat_take(table_id=table.pk, player=player, buy_in=value).ok
        elif name == "add":
            ok = services.seat_add_chips(table_id=table.pk, player=player, amount=value).ok
        elif name == "leave":
            services.seat_leave(table_id=table.pk, player=player)
            ok = False
        elif name == "register":
            try:
                tournament_register(
                    tournament_id=make_tournament(buy_in=1500, fee=100).pk, player=player
                )
                ok = True
            except TournamentRefused:
                ok = False
        else:
            play_limit_set(player_id=player.pk, kind=name, amount=value)
            ok = False
        if ok:
            now = timezone.now()
            for limit in PlayLimit.objects.filter(player=player):
                cap = in_force(limit, now)
                if cap is not None:
                    assert used_toward(limit.kind, player.pk, now) <= cap, (limit.kind, ops)


def test_the_account_page_and_the_api_set_and_show_limits(client):
    player = PlayerFactory()
    client.force_login(player)
    client.post("/accounts/limits/", {"kind": "loss_week", "amount": "25.00"})
    page = client.get("/accounts/limits/")
    assert b"$25.00" in page.content
    client.post("/accounts/limits/", {"kind": "loss_week", "amount": "99.00"})
    page = client.get("/accounts/limits/").content.decode()
    assert "$99.00 from" in page  # the raise waits, shown with its time
    api = client.post(
        "/api/me/limits/", {"kind": "buy_in_day", "amount": 1000}, content_type="application/json"
    )
    by_kind = {limit["kind"]: limit for limit in api.json()}
    assert by_kind["buy_in_day"]["amount"] == 1000
    assert by_kind["loss_week"]["amount"] == 2500 and by_kind["loss_week"]["pending"]


def test_issue_26_the_reality_check_is_set_on_the_account_page_and_the_api(client):
    """Every 60 minutes unless the player chose otherwise; more often at once, less often
    after 24 hours like a raise; a stake is never refused by it."""
    player = PlayerFactory()
    funded(player, 10_000)
    client.force_login(player)
    page = client.get("/accounts/limits/").content.decode()
    assert "Reality check every (minutes)" in page and "60 min" in page
    client.post("/accounts/limits/", {"kind": "reality_check", "amount": "20"})
    page = client.get("/accounts/limits/").content.decode()
    assert "20 min" in page
    api = client.post(
        "/api/me/limits/", {"kind": "reality_check", "amount": 45}, content_type="application/json"
    )
    by_kind = {limit["kind"]: limit for limit in api.json()}
    assert by_kind["reality_check"]["amount"] == 20  # less often: waits
    assert by_kind["reality_check"]["pending"] and by_kind["reality_check"]["pending_amount"] == 45
    refused = client.post(
        "/api/me/limits/", {"kind": "reality_check", "amount": 2}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "every 5 to 240 minutes" in refused.json()["amount"][0]
    table = make_table()
    assert services.seat_take(table_id=table.pk, player=player, buy_in=table.buy_in).ok
