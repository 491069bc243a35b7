"""The demo tournaments of `make run` (issue #13, #24): sit-and-goes the demo bots have
entered, each one seat short, so each starts when one player joins (start_when_registered):

- "Turbo sit-and-go (demo bots)": Seven Card Stud, 10 seats (9 bots), $10 + $1, 500 chips on the
  turbo preset's 3-minute levels; drawn on two tables of 5, balanced, merged at 7
  (R-TOUR-3, R-TOUR-4), so a newcomer sees everything a tournament does;
- "Razz sit-and-go (demo bots)": Razz (R-RAZZ-1..6), 6 seats (5 bots) at one table, $5 +
  $0.50, the same levels and chips: the lowest hand wins, the king brings in.

Razz rather than a demo tournament that rotates Triple Stud: a Razz event shows the game
the room added from its very first hand, while the rotation is already on show at the
demo's Triple Stud cash table; staff make a Triple Stud tournament in the admin.

Idempotent: a second call finds each tournament open (or in play) and its bots registered,
and changes nothing; once one is over, the next call opens the next one of its kind. A bot
whose wallet cannot pay the buy-in, fee and add-on is topped up first (a demo deposit)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from accounts.models import LedgerKind, Player
from accounts.services import wallet_credit
from stud import Game
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
class DemoKind:
    """One of the demo's tournaments: its name (how the next load finds it), its game, its
    seats (one more than its bots) and its bots' account names (`prefix` 1, 2, ...)."""

    name: str
    game: Game
    seats: int
    prefix: str
    buy_in: int = DEMO_BUY_IN
    fee: int = DEMO_FEE

    @property
    def bots(self) -> int:
        return self.seats - 1


STUD_DEMO = DemoKind(name=DEMO_TOURNAMENT, game=Game.STUD, seats=DEMO_SEATS, prefix=DEMO_BOT_PREFIX)
RAZZ_DEMO = DemoKind(
    name="Razz sit-and-go (demo bots)",
    game=Game.RAZZ,
    seats=6,
    prefix="rtbot",
    buy_in=500,  # $5 + $0.50
    fee=50,
)
DEMO_KINDS = (STUD_DEMO, RAZZ_DEMO)


@dataclass(frozen=True)
class DemoTournament:
    tournament_id: int
    name: str
    game_label: str
    status: str
    bot_usernames: tuple[str, ...]
    bot_password: str
    registered: int


def demo_bot_usernames(count: int = DEMO_BOTS, prefix: str = DEMO_BOT_PREFIX) -> tuple[str, ...]:
    return tuple(f"{prefix}{number}" for number in range(1, count + 1))


def _demo_tournament(kind: DemoKind, *, seats: int, starting_chips: int) -> Tournament:
    """The demo tournament of this kind not over yet (registering or in play), or a new
    one."""
    tournament = (
        Tournament.objects.filter(name=kind.name).exclude(status__in=OVER).order_by("-id").first()
    )
    if tournament is not None:
        return tournament
    return tournament_create(
        name=kind.name,
        staff=None,
        preset="turbo",
        settings={
            "game": kind.game.value,
            "buy_in": kind.buy_in,
            "fee": kind.fee,
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
    kind: DemoKind = STUD_DEMO,
    bots: int | None = None,
    prefix: str | None = None,
    seats: int | None = None,
    starting_chips: int = DEMO_STARTING_CHIPS,
    now: datetime | None = None,
) -> DemoTournament:
    """The demo tournament of `kind` and its bots' accounts (password DEMO_BOT_PASSWORD),
    each bot registered while registration is open (its buy-in and fee as ledger lines; its
    wallet holds the add-on's price too, which the bots buy over the API when short).
    `bots`: one fewer than `seats` unless given (a tournament of `seats` players starts when
    the last registers); `prefix`, `seats` and `starting_chips` (the kind's unless given)
    apply to a tournament it opens."""
    seats = kind.seats if seats is None else seats
    usernames = demo_bot_usernames(seats - 1 if bots is None else bots, prefix or kind.prefix)
    with transaction.atomic():
        tournament = _demo_tournament(kind, seats=seats, starting_chips=starting_chips)
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
        name=tournament.name,
        game_label=tournament.game_label,
        status=tournament.status,
        bot_usernames=usernames,
        bot_password=DEMO_BOT_PASSWORD,
        registered=registered,
    )


def demo_tournaments_load(*, now: datetime | None = None) -> list[DemoTournament]:
    """Every demo tournament (DEMO_KINDS: the Stud turbo of 10, the Razz one of 6), each as
    `demo_tournament_load` leaves it."""
    return [demo_tournament_load(kind=kind, now=now) for kind in DEMO_KINDS]
