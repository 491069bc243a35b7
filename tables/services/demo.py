"""The demo room of `make run`: a staff login, three funded players, a table per stakes preset
and a practice table for the demo bots. Idempotent: a second run finds everything in place and
changes nothing (no second deposit)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from accounts.models import LedgerKind, Player
from accounts.services import player_sign_up, wallet_credit
from stud import Game
from stud.variant import variant_of
from tables.models import Table
from tables.presets import PRESETS_BY_KEY, SEED_000_PRESETS, SEED_003_PRESETS, StakesPreset
from tables.selectors import rake_schedule_for_stakes

STAFF_USERNAME = "staff"
STAFF_PASSWORD = "staff-demo-pass"
PLAYER_PASSWORD = "player-demo-pass"
DEMO_PLAYERS: tuple[tuple[str, int], ...] = (("alice", 50_000), ("bob", 25_000), ("carol", 10_000))
PRACTICE_TABLE = "Practice (demo bots)"
RAZZ_PRACTICE_TABLE = "Rasalhague (demo bots)"  # a plain name, as every table (#21)
TRIPLE_STUD_TABLE = "Tarazed (demo bots)"
# A sane preset (seed 000's $1/$2: ante 10c, bring-in 20c, buy-in $10), never an odd one.
PRACTICE_PRESET = "000-100-200"


@dataclass(frozen=True)
class DemoRoom:
    staff_username: str
    staff_password: str
    player_usernames: tuple[str, ...]
    player_password: str
    practice_table_id: int
    razz_table_id: int
    triple_stud_table_id: int
    tables: int


# The demo tables' names, one each, as online rooms name theirs (a plain word: the lobby's
# Game and Stakes columns say the rest): seed 000's sane presets, then seed 003's, in order.
DEMO_TABLE_NAMES: tuple[str, ...] = (
    "Aldebaran",
    "Bellatrix",
    "Capella",
    "Deneb",
    "Electra",
    "Fomalhaut",
    "Gemma",
    "Hadar",
    "Izar",
    "Jabbah",
    "Kochab",
    "Lesath",
    "Mirach",
    "Nunki",
    "Polaris",
)
DEMO_RAZZ_TABLE_NAMES: tuple[str, ...] = ("Rigel", "Sirius", "Vega", "Wezen")


def _money(cents: int) -> str:
    return f"${cents // 100}" if cents % 100 == 0 else f"${cents / 100:.2f}"


def _old_table_name(preset: StakesPreset, game: Game) -> str:
    """The name an earlier demo gave this table ("Stud $1/$2 (seed 000)"): renamed on load."""
    title = variant_of(game).short_name
    return f"{title} {_money(preset.small_bet)}/{_money(preset.big_bet)} (seed {preset.seed})"


def _table_from_preset(
    name: str,
    preset: StakesPreset,
    game: Game,
    *,
    old_name: str | None = None,
    triple_stud: bool = False,
) -> Table:
    if old_name is not None and not Table.objects.filter(name=name).exists():
        Table.objects.filter(name=old_name).update(name=name)
    table, _created = Table.objects.get_or_create(
        name=name,
        defaults={
            "game": game.value,
            "triple_stud": triple_stud,
            "small_bet": preset.small_bet,
            "big_bet": preset.big_bet,
            "ante": preset.ante,
            "bring_in": preset.bring_in,
            "buy_in": preset.buy_in,
            "rake_schedule": rake_schedule_for_stakes(preset.small_bet, preset.big_bet),
        },
    )
    return table


def _staff() -> Player:
    staff = Player.objects.filter(username=STAFF_USERNAME).first()
    if staff is None:
        staff = Player.objects.create_superuser(
            username=STAFF_USERNAME, email="staff@room.invalid", password=STAFF_PASSWORD
        )
    return staff


def _player(username: str, deposit: int, staff: Player) -> Player:
    player = Player.objects.filter(username=username).first()
    if player is None:
        player = player_sign_up(
            username=username,
            email=f"{username}@room.invalid",
            password=PLAYER_PASSWORD,
            play_money_grant=False,  # the demo bankroll below, in any room
            email_confirmed=True,  # the room made it: nothing to confirm by mail
        )
        wallet_credit(
            player_id=player.pk,
            amount=deposit,
            kind=LedgerKind.DEPOSIT,
            staff=staff,
            reason="demo bankroll",
        )
    return player


def demo_room_load() -> DemoRoom:
    with transaction.atomic():
        staff = _staff()
        for username, deposit in DEMO_PLAYERS:
            _player(username, deposit, staff)
        # Seed 000's list as Seven Card Stud, seed 003's (the room with Hi/Lo) alternating.
        # Seed 000's odd presets (an ante or bring-in equal to the small bet: RULES.md "Stakes
        # presets") stay in the admin's list, flagged, for staff; the demo opens none of them.
        dealt: list[tuple[StakesPreset, Game]] = [
            (preset, Game.STUD) for preset in SEED_000_PRESETS if not preset.odd
        ]
        dealt += [
            (preset, Game.STUD8 if index % 2 else Game.STUD)
            for index, preset in enumerate(SEED_003_PRESETS)
        ]
        for name, (preset, game) in zip(DEMO_TABLE_NAMES, dealt, strict=True):
            _table_from_preset(name, preset, game, old_name=_old_table_name(preset, game))
        # Razz deals at the stud presets (R-GAME-1: the same stakes, fixed limit).
        for name, preset in zip(DEMO_RAZZ_TABLE_NAMES, SEED_003_PRESETS[:4], strict=True):
            _table_from_preset(name, preset, Game.RAZZ)
        practice = _table_from_preset(PRACTICE_TABLE, PRESETS_BY_KEY[PRACTICE_PRESET], Game.STUD)
        razz = _table_from_preset(RAZZ_PRACTICE_TABLE, PRESETS_BY_KEY[PRACTICE_PRESET], Game.RAZZ)
        # R-MIX-1: Stud, Razz and Stud Hi/Lo in turn, at the practice stakes.
        triple = _table_from_preset(
            TRIPLE_STUD_TABLE, PRESETS_BY_KEY[PRACTICE_PRESET], Game.STUD, triple_stud=True
        )
    return DemoRoom(
        staff_username=STAFF_USERNAME,
        staff_password=STAFF_PASSWORD,
        player_usernames=tuple(username for username, _ in DEMO_PLAYERS),
        player_password=PLAYER_PASSWORD,
        practice_table_id=practice.pk,
        razz_table_id=razz.pk,
        triple_stud_table_id=triple.pk,
        tables=Table.objects.count(),
    )


DEMO_BOT_PASSWORD = "demo-bot-password-change-me"
DEMO_BOT_DEPOSIT = 100_000  # $1,000.00


def demo_bot_account(username: str, password: str = DEMO_BOT_PASSWORD) -> Player:
    """The bot's player, made (and funded) the first time; its password is reset to ours."""
    with transaction.atomic():
        player = Player.objects.filter(username=username).first()
        if player is None:
            player = player_sign_up(
                username=username,
                email=f"{username}@bots.invalid",
                password=password,
                play_money_grant=False,  # the bot bankroll below, in any room
                email_confirmed=True,
            )
            wallet_credit(
                player_id=player.pk,
                amount=DEMO_BOT_DEPOSIT,
                kind=LedgerKind.DEPOSIT,
                reason="demo bot bankroll",
            )
        elif not player.check_password(password):
            player.set_password(password)
            player.save()
    return player
