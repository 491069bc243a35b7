"""A player's own hand-history file, whatever wrote it: PokerStars stud text (one hand or many)
or PHH (one hand, or a ``.phhs`` file of several). The format is told from the text; each hand
is read, replayed and checked by its reader (``stud.pokerstars_in``, ``stud.phh``), so what
comes back is a ``ReadHand`` for every hand that adds up and a ``Refusal`` naming the failing
line for every one that does not. A file that is neither, or holds too many hands, is refused
whole (``HistoryRefused``).
"""

from __future__ import annotations

from dataclasses import dataclass

from stud.phh import PhhRefused, read_phh_file
from stud.pokerstars_in import read_pokerstars, split_hands
from stud.read_hand import HistoryRefused, ReadHand, Refusal

# Hands read from one file at most: each is replayed, so this bounds the work of one upload.
MAX_HANDS = 200


@dataclass(frozen=True)
class HistoryFile:
    format: str  # "pokerstars" or "phh"
    hands: list[ReadHand | Refusal]

    @property
    def read(self) -> list[ReadHand]:
        return [hand for hand in self.hands if isinstance(hand, ReadHand)]

    @property
    def refused(self) -> list[Refusal]:
        """The hands that do not add up (not those of other games, left out)."""
        return [h for h in self.hands if isinstance(h, Refusal) and not h.other_game]

    @property
    def other_games(self) -> list[Refusal]:
        """Hands of games other than stud in a mixed file (Hold'em, Omaha...): left out."""
        return [h for h in self.hands if isinstance(h, Refusal) and h.other_game]


def read_histories(text: str, *, max_hands: int = MAX_HANDS) -> HistoryFile:
    """Every hand of ``text``, read and checked. Refused whole (``HistoryRefused``) when the
    text is empty, not text, neither format, or holds more than ``max_hands`` hands."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise HistoryRefused("The file is empty.")
    if "\x00" in text:
        raise HistoryRefused("This is not a text file.")
    hands = split_hands(text)
    if hands:
        if len(hands) > max_hands:
            raise HistoryRefused(
                f"The file holds {len(hands)} hands: open at most {max_hands} at a time."
            )
        return HistoryFile("pokerstars", read_pokerstars(text))
    try:
        return HistoryFile("phh", read_phh_file(text, max_hands=max_hands))
    except PhhRefused as refused:
        raise HistoryRefused(
            "This is neither PokerStars hand histories (no line begins "
            f"'PokerStars Hand #') nor a PHH file: {refused}"
        ) from None
