"""The demo tournament of `make run` (issue #13): a turbo sit-and-go of 10 (500 chips on
the turbo preset's 3-minute levels) that 9 demo bots have entered, so it starts when one
player joins (start_when_registered), is drawn on two tables of 5, merges at 7 (R-TOUR-4)
and plays to a winner in minutes.

Idempotent: a second call finds the tournament open (or in play) and its bots registered,
and changes nothing; once it is over, the next call opens the next one. A bot whose wallet
cannot pay the buy-in, fee and add-on is topped up first (a demo deposit)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from accounts.models import LedgerKind, Player
from accounts.services import wallet_credit
from tables.services.demo import DEMO_BOT_PASSWORD, demo_bot_account
from tournaments.models import OVER, Tournament, TournamentEntry, TournamentStatus
from tournaments.services.entries import tournament_create, tournament_register

DEMO_TOURNAMENT = "Turbo sit-and-go (demo bots)"
DEMO_SEATS = 10  # starts when the 10th registers: the player who joins the bots
DEMO_BOTS = DEMO_SEATS - 1
DEMO_BOT_PREFIX = "tbot"
DEMO_BUY_IN = 1000  # $10 + $1
DEMO_FEE = 100
# Half R-TOUR-1's stacks (and add-on), on the turbo levels: over in minutes, not half an hour.
DEMO_STARTING_CHIPS = 500
DEMO_ADD_ON_PRICE = 500
DEMO_ADD_ON_CHIPS = 250


@dataclass(frozen=True)
class DemoTournament:
    tournament_id: int
    status: str
    bot_usernames: tuple[str, ...]
    bot_password: str
    registered: int


def demo_bot_usernames(count: int = DEMO_BOTS, prefix: str = DEMO_BOT_PREFIX) -> tuple[str, ...]:
    return tuple(f"{prefix}{number}" for number in range(1, count + 1))


def _demo_tournament(*, seats: int, starting_chips: int) -> Tournament:
    """The demo tournament not over yet (registering or in play), or a new one."""
    tournament = (
        Tournament.objects.filter(name=DEMO_TOURNAMENT)
        .exclude(status__in=OVER)
        .order_by("-id")
        .first()
    )
    if tournament is not None:
        return tournament
    return tournament_create(
        name=DEMO_TOURNAMENT,
        staff=None,
        preset="turbo",
        settings={
            "buy_in": DEMO_BUY_IN,
            "fee": DEMO_FEE,
            "starting_chips": starting_chips,
            "add_on_price": DEMO_ADD_ON_PRICE,
            "add_on_chips": DEMO_ADD_ON_CHIPS,
            "max_players": seats,
            "start_when_registered": seats,
        },
    )


def _bot_funded(player: Player, cost: int) -> None:
    player.refresh_from_db(fields=["balance"])
    if player.balance < cost:
        wallet_credit(
            player_id=player.pk,
            amount=cost * 10,
            kind=LedgerKind.DEPOSIT,
            reason="demo bot bankroll",
        )


def demo_tournament_load(
    *,
    bots: int | None = None,
    prefix: str = DEMO_BOT_PREFIX,
    seats: int = DEMO_SEATS,
    starting_chips: int = DEMO_STARTING_CHIPS,
    now: datetime | None = None,
) -> DemoTournament:
    """The demo tournament and its bots' accounts (password DEMO_BOT_PASSWORD), each bot
    registered while registration is open (its buy-in and fee as ledger lines; its wallet
    holds the add-on's price too, which the bots buy over the API when short). `bots`:
    one fewer than `seats` unless given (a tournament of `seats` players starts when the
    last registers); `seats` and `starting_chips` apply to a tournament it opens."""
    usernames = demo_bot_usernames(seats - 1 if bots is None else bots, prefix)
    with transaction.atomic():
        tournament = _demo_tournament(seats=seats, starting_chips=starting_chips)
        for username in usernames:
            player = demo_bot_account(username, DEMO_BOT_PASSWORD)
            entered = TournamentEntry.objects.filter(tournament=tournament, player=player)
            if tournament.status == TournamentStatus.REGISTERING and not entered.exists():
                _bot_funded(player, tournament.buy_in + tournament.fee + tournament.add_on_price)
                tournament_register(tournament_id=tournament.pk, player=player, now=now)
        tournament.refresh_from_db()
        registered = TournamentEntry.objects.filter(tournament=tournament).count()
    return DemoTournament(
        tournament_id=tournament.pk,
        status=tournament.status,
        bot_usernames=usernames,
        bot_password=DEMO_BOT_PASSWORD,
        registered=registered,
    )
