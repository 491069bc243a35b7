"""R-HIST-3: the room's PokerStars-format export, against the real files it imitates.

Each of the replayed hands (see test_pokerstars_replay.py) is rendered again from the engine's
finished hand, and compared with the original file line by line: the same kinds of line in the
same order, with the same names, cards and amounts. Then the renderer's text is read back by
the same parser that reads PokerStars' own files (a round trip).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from stud import Show
from stud.history_text import ALL_DOWN_CARDS, format_amount, format_started_at, render_pokerstars
from tests.stud.pokerstars import (
    TESTDATA,
    LineKind,
    PokerStarsHand,
    Replay,
    parse_file,
    parse_hand,
    replay_hand,
    shared_testdata,
)

SPLIT = TESTDATA / "pokerstars-stud" / "split"
HAND_IDS = sorted(path.stem for path in SPLIT.glob("*.txt")) if SPLIT.is_dir() else ["missing"]
# Lines whose text cannot match, each for a named reason (their kind must still match):
# - 29356803849 was re-exported by PokerTracker 2, which dropped the hero's river line;
# - 91733835979 has a damaged card token "[of]", so the hero's river card is ours, not theirs;
# - 60974484959: R-POT-5 splits the rake 3/2 between main and side pot, PokerStars 2/3, so
#   the winner's two "collected" lines differ by a cent each (their sum is the same).
LOOSE_TEXT = {
    "29356803849": {LineKind.DEALT},
    "91733835979": {LineKind.DEALT, LineKind.SHOWS, LineKind.SEAT_RESULT},
    "60974484959": {LineKind.TOTAL_POT, LineKind.COLLECTED},
}
# Lines the file lacks: the PokerTracker 2 re-export dropped "Pair on board - a double bet is
# allowed" (Player5 shows 2h 2d on 4th street); PokerStars' own files print it (35874289931).
# (99632607069's uncalled winner shows by choice, R-SHOW-3: replayed with show_cards, and our
# copy writes the "shows" line too.)
DROPPED = {
    "29356803849": {LineKind.DOUBLE_BET_ALLOWED},
}
# Stud Hi/Lo: PokerStars never offers the 4th-street double bet (nor does Robert's Rules for
# Hi/Lo); RULES.md's R-BET-2 names no game, so the engine offers it in stud8 as well and our
# copy says "Pair on board - a double bet is allowed" where PokerStars says nothing. Reported
# to the lead; until RULES.md rules on it that line is left out of the stud8 comparison.
DROPPED_IN_STUD8 = {LineKind.DOUBLE_BET_ALLOWED}
# Kinds the renderer never writes: chat, joins and leaves; "doesn't show hand" (newer files).
SKIPPED_KINDS = {LineKind.OTHER, LineKind.DOESNT_SHOW, LineKind.HEADER}


def viewer_of(source: PokerStarsHand) -> int | None:
    """The file's hero: the player whose 3rd-street line shows three cards."""
    street = 0
    for kind, line in source.lines:
        if kind is LineKind.STREET:
            street += 1
        if kind is LineKind.DEALT and street == 1 and line.count(" ") >= 4:
            name = line[len("Dealt to ") : line.index(" [")]
            return source.seat_of(name)
    return None


def replay_of(hand_id: str) -> Replay:
    if hand_id == "missing":
        shared_testdata("pokerstars-stud", "split")
    return replay_hand(parse_file(SPLIT / f"{hand_id}.txt"))


def render(replay: Replay, viewer: int | str | None) -> str:
    source = replay.source
    return render_pokerstars(
        replay.hand,
        hand_id=source.hand_id,
        table_name=source.table_name,
        started_at=source.started_at,
        viewer=viewer,  # type: ignore[arg-type]
        max_seats=source.max_seats,
        dollars=source.dollars,
    )


def sections(lines: list[tuple[LineKind, str]]) -> list[list[tuple[LineKind, str]]]:
    """Split at street, show-down and summary markers."""
    parts: list[list[tuple[LineKind, str]]] = [[]]
    for kind, line in lines:
        if kind in (LineKind.STREET, LineKind.SHOW_DOWN, LineKind.SUMMARY):
            parts.append([])
        parts[-1].append((kind, line))
    return parts


def comparable(kind: LineKind, line: str, loose: set[LineKind]) -> tuple[LineKind, str]:
    if kind in loose:
        return kind, ""
    if kind is LineKind.SEAT:
        line = line.removesuffix(" is sitting out")
    if kind is LineKind.SEAT_RESULT and " mucked " in line:
        line = line[: line.index(" mucked ")] + " mucked"  # cards shown only in some copies
    return kind, line


@pytest.mark.parametrize("hand_id", HAND_IDS)
def test_r_hist_3_rendered_text_matches_the_pokerstars_file(hand_id: str) -> None:
    replay = replay_of(hand_id)
    source = replay.source
    text = render(replay, viewer_of(source))
    rendered = parse_hand(text)
    loose = LOOSE_TEXT.get(hand_id, set())

    def kept(hand: PokerStarsHand) -> list[tuple[LineKind, str]]:
        skipped = SKIPPED_KINDS | DROPPED.get(hand_id, set())
        if source.game == "stud8":
            skipped |= DROPPED_IN_STUD8
        return [comparable(k, line, loose) for k, line in hand.lines if k not in skipped]

    ours, theirs = sections(kept(rendered)), sections(kept(source))
    assert len(ours) == len(theirs)
    for number, (our_part, their_part) in enumerate(zip(ours, theirs, strict=True)):
        if number == 0:
            # PokerStars home games list the antes in another order than the seats
            assert sorted(our_part) == sorted(their_part)
        elif our_part and our_part[0][0] is LineKind.SHOW_DOWN:
            # PokerStars interleaves side-pot collections with the showdown; order may differ
            assert Counter(our_part) == Counter(their_part)
        else:
            assert our_part == their_part
    assert rendered.final_stacks() == source.final_stacks()


@pytest.mark.parametrize("hand_id", HAND_IDS)
def test_r_hist_3_round_trip_the_staff_copy_parses_back_to_the_same_hand(hand_id: str) -> None:
    """The staff copy shows every card; parsed back it gives the engine's cards, actions,
    pots, rake, winners and stacks."""
    replay = replay_of(hand_id)
    hand = replay.hand
    parsed = parse_hand(render(replay, ALL_DOWN_CARDS))
    assert parsed.hand_id == replay.source.hand_id
    assert parsed.game == hand.config.game.value
    assert (parsed.small_bet, parsed.big_bet) == (hand.config.small_bet, hand.config.big_bet)
    result = hand.result
    assert result is not None
    names = {p.seat: p.name for p in hand.players}
    assert parsed.total_pot == sum(pot.amount for pot in result.pots)
    assert parsed.rake == result.rake
    assert parsed.final_stacks() == {names[seat]: stack for seat, stack in result.final_stacks}
    for player in hand.players:
        dealt = hand.cards(player.seat)
        assert parsed.cards[player.name][: len(dealt)] == list(dealt)
    assert len(parsed.actions) == sum(not isinstance(record, Show) for record in hand.log)


def test_r_hist_2_a_players_copy_shows_only_their_own_down_cards() -> None:
    replay = replay_of("35874576282")
    hero = replay.source.seat_of("Hero")
    hero_copy = parse_hand(render(replay, hero))
    public = parse_hand(render(replay, None))
    staff = parse_hand(render(replay, ALL_DOWN_CARDS))
    assert hero_copy.cards["Hero"][:2] == staff.cards["Hero"][:2]
    assert public.cards["Hero"][:2] == [None, None]
    # TomSludge folded on 3rd street: only the staff copy shows his down cards
    assert hero_copy.cards["TomSludge"][:2] == [None, None]
    assert staff.cards["TomSludge"][:2] != [None, None]
    # u.pressure showed down: everyone sees those cards
    assert public.cards["u.pressure"] == staff.cards["u.pressure"]


def test_r_hist_2_mucked_cards_appear_only_in_the_emailed_copy() -> None:
    replay = replay_of("35874523510")  # 123smoothie mucks at showdown
    seat = replay.source.seat_of("123smoothie")
    other = replay.source.seat_of("rdiezchang")
    assert "123smoothie mucked [" in render(replay, ALL_DOWN_CARDS)
    assert "123smoothie mucked [" in render(replay, seat)
    assert "123smoothie mucked [" not in render(replay, other)


def test_r_hist_3_amounts_and_dates_in_pokerstars_form() -> None:
    assert format_amount(4) == "$0.04"
    assert format_amount(100) == "$1"
    assert format_amount(160) == "$1.60"
    assert format_amount(331800) == "$3318"
    assert format_amount(1144, dollars=False) == "1144"
    moment = datetime(2009, 11, 26, 15, 8, 43, tzinfo=UTC)
    assert format_started_at(moment) == "2009/11/26 10:08:43 ET"
