"""Reads of a player's own hand-history files (issue #24 item 5): a file opened on the import
page, read and checked by the engine (``stud.history_in``) and shown from the request alone,
and the hands the player kept in their account (``ImportedHand``, only their own).

Each hand goes to the same replayer as the room's own hands (static/js/replayer.js), as the
file lets it be seen: public events, and a seat's down cards only where the file names them
all (``stud.read_hand.events``): a card the file does not give is never drawn. Writes are
histories.services'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.money import cents_format
from histories.models import ImportedHand
from stud.history_in import HistoryFile, read_histories
from stud.read_hand import HistoryRefused, ReadHand, Refusal, events
from stud.variant import variant_of


@dataclass(frozen=True)
class ImportedRow:
    """One hand of a file as the import page and a kept hand's page show it."""

    read: ReadHand
    index: int  # its place in the file's hands that read (the replayer's choice)

    @property
    def title(self) -> str:
        return self.read.title

    @property
    def game_label(self) -> str:
        return variant_of(self.read.hand.config.game).short_name

    def amount_text(self, amount: int) -> str:
        return f"{amount:,}" if self.read.chips else cents_format(amount)

    @property
    def stakes_text(self) -> str:
        config = self.read.hand.config
        return f"{self.amount_text(config.small_bet)}/{self.amount_text(config.big_bet)}"

    @property
    def players_text(self) -> str:
        return ", ".join(player.name for player in self.read.hand.players)

    @property
    def hero_name(self) -> str | None:
        seat = self.read.hero_seat
        if seat is None:
            return None
        return next(p.name for p in self.read.hand.players if p.seat == seat)

    @property
    def hero_net(self) -> int | None:
        seat = self.read.hero_seat
        result = self.read.hand.result
        if seat is None or result is None:
            return None
        start = next(p.stack for p in self.read.hand.players if p.seat == seat)
        return result.stack(seat) - start

    @property
    def hero_net_text(self) -> str:
        net = self.hero_net
        if net is None:
            return ""
        return ("+" if net > 0 else "-" if net < 0 else "") + self.amount_text(abs(net))

    @property
    def outcome(self) -> str:
        net = self.hero_net
        return "" if net is None else "won" if net > 0 else "lost" if net < 0 else "even"

    @property
    def winners_text(self) -> str:
        """Who won what: "trs2758 wins $0.64"; a split, each half."""
        result = self.read.hand.result
        assert result is not None
        names = {p.seat: p.name for p in self.read.hand.players}
        won: dict[int, int] = {}
        for pot in result.pots:
            for award in pot.awards:
                won[award.seat] = won.get(award.seat, 0) + award.amount
        return ", ".join(f"{names[seat]} wins {self.amount_text(won[seat])}" for seat in won)

    @property
    def replay(self) -> dict[str, Any]:
        return imported_replay(self.read)


@dataclass(frozen=True)
class ImportedFile:
    """A file opened on the import page: its hands that read, those refused (with the line
    that fails) and how many hands of other games it held."""

    format: str
    rows: list[ImportedRow]
    refused: list[Refusal]
    other_games: int

    @property
    def format_label(self) -> str:
        return dict(ImportedHand.FORMATS)[self.format]


def imported_file(text: str) -> ImportedFile:
    """Read and check every hand of ``text``; ``HistoryRefused`` when the file as a whole
    cannot be read (neither format, empty, too many hands)."""
    history: HistoryFile = read_histories(text)
    return ImportedFile(
        format=history.format,
        rows=[ImportedRow(read, index) for index, read in enumerate(history.read)],
        refused=history.refused,
        other_games=len(history.other_games),
    )


def imported_replay(read: ReadHand) -> dict[str, Any]:
    """The hand for static/js/replayer.js, in the shape of ``tables.selectors.hand_replay``:
    its events as the file lets them be seen (``stud.read_hand.events``), numbered from 1."""
    config = read.hand.config
    number = re.search(r"#?(\w+)$", read.title)
    return {
        "hand_id": number[1] if number else None,
        "number": None,
        "table": {
            "name": read.table_name or "Imported",
            "game": config.game.value,
            "small_bet": config.small_bet,
            "big_bet": config.big_bet,
            "ante": config.ante,
            "bring_in": config.bring_in,
            "seats": read.seat_count,
            "is_tournament": read.chips,  # amounts in chips, not dollars
        },
        "viewer_seat": read.hero_seat,
        "events": [
            {"seq": seq, "kind": event.kind, "payload": event.payload}
            for seq, event in enumerate(events(read), start=1)
        ],
    }


def imported_hands(*, player_id: int) -> QuerySet[ImportedHand]:
    """The hands the player kept, newest first."""
    return ImportedHand.objects.filter(player_id=player_id).order_by("-kept_at", "-id")


@dataclass(frozen=True)
class KeptHand:
    """A kept hand read again from its text: the row, or the refusal if it no longer reads
    (a later, stricter check)."""

    kept: ImportedHand
    row: ImportedRow | None
    refusal: str = ""


def imported_hand(*, player_id: int, imported_id: int) -> KeptHand | None:
    """One of the player's kept hands, read again; None when it is not theirs."""
    kept = ImportedHand.objects.filter(player_id=player_id, pk=imported_id).first()
    if kept is None:
        return None
    try:
        history = read_histories(kept.source, max_hands=1)
    except HistoryRefused as refused:
        return KeptHand(kept, None, str(refused))
    hands = history.hands
    if len(hands) != 1 or not isinstance(hands[0], ReadHand):
        message = hands[0].message if hands and isinstance(hands[0], Refusal) else ""
        return KeptHand(kept, None, message or "It no longer reads as one hand.")
    return KeptHand(kept, ImportedRow(hands[0], 0))
