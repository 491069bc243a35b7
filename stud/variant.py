"""The games of the stud family, each declared once as data plus its rule hooks (R-GAME-1).

A ``Variant`` says everything in which one stud game differs from another: how the bring-in
is chosen (the lowest door card or the highest), who acts first on 4th to 7th street (the best
board showing or the lowest), whether a 4th-street open pair allows the big bet, how hands are
ranked and pots split (high; high and eight-or-better low; ace-to-five low), and the names it
is known by (the room's, PokerStars text's, the PHH standard's code). The engine, the
histories and the room ask the variant; nothing else names a game.

Like PokerKit's ``FixedLimitRazz(FixedLimitPokerMixin, SevenCardStud)`` with ``low=True``
and its ``Opening.LOW_CARD`` / ``HIGH_HAND``: a new stud game is one more entry in
``VARIANTS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from stud.cards import Card
from stud.evaluate import (
    best_razz_five,
    board_rank,
    describe_high,
    describe_low,
    describe_razz,
    high_rank7,
    low8_rank,
    low_board_rank,
    razz_rank7,
)


class Game(StrEnum):
    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"


class BringIn(StrEnum):
    """R-BRING-1 / R-RAZZ-2: which door card brings in."""

    LOWEST_DOOR = "lowest_door"  # ace high, suits clubs < diamonds < hearts < spades
    HIGHEST_DOOR = "highest_door"  # ace low, the king of spades the highest


class FirstToAct(StrEnum):
    """R-ORDER-1 / R-RAZZ-3: whose board acts first on 4th to 7th street."""

    BEST_BOARD = "best_board"
    LOWEST_BOARD = "lowest_board"


class PotSplit(StrEnum):
    """R-POT-2, R-HILO-1, R-RAZZ-1: what a hand is worth at showdown and who wins the pot."""

    HIGH = "high"
    HIGH_LOW8 = "high_low8"  # half to the best high, half to the best eight-or-better low
    LOW_A5 = "low_a5"  # the whole pot to the best ace-to-five low


def _door_order_low(card: Card) -> int:
    return card  # the card id's order is R-BRING-1's


def _door_order_high(card: Card) -> int:
    # R-RAZZ-2: the highest, ace low, suit breaking ties (spades highest) brings in; the
    # engine takes the smallest key, so the order is turned round.
    return 51 - ((((card >> 2) + 1) % 13) * 4 + (card & 3))


@dataclass(frozen=True, slots=True)
class Variant:
    """One stud game: its rules as data, and the hooks that follow from them."""

    game: Game
    name: str  # the room's: the lobby, the table page, the reports
    short_name: str  # where room is short (the lobby's game column, the hand list)
    pokerstars_name: str  # PokerStars text's game: "7 Card Stud", "Razz" (+ " Limit")
    phh_code: str  # the PHH standard's variant code: F7S, F7S/8, FR
    bring_in: BringIn
    first_to_act: FirstToAct
    open_pair_big_bet: bool  # R-BET-2
    pot_split: PotSplit
    # --- hooks, derived from the data above (see VARIANTS) ---
    door_order: tuple[int, ...] = field(repr=False)  # per card: the smallest brings in
    board_strength: Callable[[Sequence[Card]], tuple[int, ...]] = field(repr=False)
    rank7: Callable[..., int] = field(repr=False)  # a seven-card hand's value, larger wins
    board_cache: dict[int, tuple[int, ...]] = field(repr=False, compare=False)

    @property
    def has_low_half(self) -> bool:
        """Stud Hi/Lo: a pot may be split between a high and an eight-or-better low."""
        return self.pot_split is PotSplit.HIGH_LOW8

    @property
    def is_low(self) -> bool:
        """Razz: the lowest hand takes the whole pot."""
        return self.pot_split is PotSplit.LOW_A5

    @property
    def pokerstars_game(self) -> str:
        """The game as a PokerStars hand header writes it: "7 Card Stud Hi/Lo Limit"."""
        return f"{self.pokerstars_name} Limit"

    def describe(self, cards: Sequence[Card]) -> str:
        """The hand's value in words as the room writes it: the best high, or the low."""
        if self.is_low:
            return describe_razz(cards)
        return describe_high(cards)

    def describe_pokerstars(self, cards: Sequence[Card]) -> str:
        """The words after a shown hand in PokerStars text: "HI: ...; LO: 8,7,5,3,A",
        "Lo: 7,5,4,2,A" in Razz, or the high hand alone."""
        if self.is_low:
            return f"Lo: {describe_razz(cards, separator=',')}"
        high = describe_high(cards)
        if not self.has_low_half:
            return high
        if low8_rank(cards) is None:
            return f"HI: {high}"
        return f"HI: {high}; LO: {describe_low(cards)}"

    def best_five(self, cards: Sequence[Card]) -> list[Card]:
        """Razz: the five cards of the best low (the high game finds its five elsewhere)."""
        return best_razz_five(cards)


def _variant(
    game: Game,
    name: str,
    short_name: str,
    pokerstars_name: str,
    phh_code: str,
    *,
    bring_in: BringIn,
    first_to_act: FirstToAct,
    open_pair_big_bet: bool,
    pot_split: PotSplit,
) -> Variant:
    low = pot_split is PotSplit.LOW_A5
    order = _door_order_low if bring_in is BringIn.LOWEST_DOOR else _door_order_high
    return Variant(
        game=game,
        name=name,
        short_name=short_name,
        pokerstars_name=pokerstars_name,
        phh_code=phh_code,
        bring_in=bring_in,
        first_to_act=first_to_act,
        open_pair_big_bet=open_pair_big_bet,
        pot_split=pot_split,
        door_order=tuple(order(card) for card in range(52)),
        board_strength=low_board_rank if first_to_act is FirstToAct.LOWEST_BOARD else board_rank,
        rank7=razz_rank7 if low else high_rank7,
        board_cache={},
    )


VARIANTS: dict[Game, Variant] = {
    Game.STUD: _variant(
        Game.STUD,
        "Seven Card Stud",
        "Stud",
        "7 Card Stud",
        "F7S",
        bring_in=BringIn.LOWEST_DOOR,
        first_to_act=FirstToAct.BEST_BOARD,
        open_pair_big_bet=True,
        pot_split=PotSplit.HIGH,
    ),
    Game.STUD8: _variant(
        Game.STUD8,
        "Stud Hi/Lo",
        "Stud Hi/Lo",
        "7 Card Stud Hi/Lo",
        "F7S/8",
        bring_in=BringIn.LOWEST_DOOR,
        first_to_act=FirstToAct.BEST_BOARD,
        open_pair_big_bet=True,
        pot_split=PotSplit.HIGH_LOW8,
    ),
    Game.RAZZ: _variant(
        Game.RAZZ,
        "Razz",
        "Razz",
        "Razz",
        "FR",
        bring_in=BringIn.HIGHEST_DOOR,
        first_to_act=FirstToAct.LOWEST_BOARD,
        open_pair_big_bet=False,
        pot_split=PotSplit.LOW_A5,
    ),
}


def variant_of(game: Game | str) -> Variant:
    """The variant a game names (``"razz"`` or ``Game.RAZZ``); ValueError for no game."""
    return VARIANTS[Game(game)]


def game_choices() -> list[tuple[str, str]]:
    """(value, room name) for every game, in the order of R-GAME-1: for forms and filters."""
    return [(variant.game.value, variant.name) for variant in VARIANTS.values()]


# The same choices as a constant, for settings that name them by import path (the API
# schema's one GameEnum: SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
GAME_CHOICES: list[tuple[str, str]] = game_choices()


# --- Triple Stud (R-MIX-1) -----------------------------------------------------------------

TRIPLE_STUD: tuple[Game, ...] = (Game.STUD, Game.RAZZ, Game.STUD8)
TRIPLE_STUD_NAME = "Triple Stud"
HANDS_PER_GAME = 8


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where a Triple Stud table stands (R-MIX-1). ``current``: the game of the hand in play
    (``hand_in_play``) or, between hands, of the hand to be dealt next; ``next_hand``: the
    game of the next hand dealt (between hands, that is ``current``'s hand itself);
    ``hands_left``: hands of ``current`` still to come after the one in play or to be dealt
    next; ``next_game``: the game that follows ``current`` in the rotation."""

    current: Game
    next_hand: Game
    hands_left: int
    next_game: Game
    hand_in_play: bool

    def to_json(self) -> dict[str, object]:
        return {
            "hand_in_play": self.hand_in_play,
            "current_game": self.current.value,
            "next_hand_game": self.next_hand.value,
            "hands_left_in_game": self.hands_left,
            "next_game": self.next_game.value,
        }

    @property
    def words(self) -> str:
        """The rotation without the table's name for it, as a player reads it: "now Razz ·
        next hand Razz · 3 more before Stud Hi/Lo" while a hand is played; "next hand Razz ·
        then Stud Hi/Lo" between hands (the count is of hands after the one named first)."""
        name = {game: variant.short_name for game, variant in VARIANTS.items()}
        following = name[self.next_game]
        if self.hand_in_play:
            text = f"now {name[self.current]} · next hand {name[self.next_hand]}"
        else:
            text = f"next hand {name[self.current]}"
        if self.hands_left:
            return f"{text} · {self.hands_left} more before {following}"
        return text if self.hand_in_play else f"{text} · then {following}"

    @property
    def label(self) -> str:
        """The table header's and the lobby's words: "Triple Stud · now Razz · next hand
        Stud Hi/Lo"."""
        return f"{TRIPLE_STUD_NAME} · {self.words}"


def triple_stud_game(hand_number: int) -> Game:
    """R-MIX-1: the game of a table's hand ``hand_number`` (1 for its first): Stud, Razz,
    Stud Hi/Lo, eight hands each, round and round; the game changes only between hands."""
    if hand_number < 1:
        raise ValueError("hands are numbered from 1")
    return TRIPLE_STUD[(hand_number - 1) // HANDS_PER_GAME % len(TRIPLE_STUD)]


def triple_stud_rotation(hand_number: int, *, hand_in_play: bool) -> Rotation:
    """Where the rotation stands at hand ``hand_number``: the hand in play
    (``hand_in_play``), or the next to be dealt when none is."""
    current = triple_stud_game(hand_number)
    left = HANDS_PER_GAME - 1 - (hand_number - 1) % HANDS_PER_GAME
    following = TRIPLE_STUD[(TRIPLE_STUD.index(current) + 1) % len(TRIPLE_STUD)]
    return Rotation(
        current=current,
        next_hand=triple_stud_game(hand_number + 1) if hand_in_play else current,
        hands_left=left,
        next_game=following,
        hand_in_play=hand_in_play,
    )
