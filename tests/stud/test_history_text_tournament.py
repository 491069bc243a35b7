"""R-HIST-3 for tournament hands: PokerStars' tournament header, chips as plain numbers
(tournament chips are never dollars), and the "finished the tournament" lines, checked
against the real tournament hand 91733835979 and read back by the same parser."""

from __future__ import annotations

import pytest

from stud.history_text import TournamentHeading, ordinal, render_pokerstars, roman
from tests.stud.pokerstars import TESTDATA, parse_file, parse_hand, replay_hand

SOURCE = TESTDATA / "pokerstars-stud" / "split" / "91733835979.txt"
pytestmark = pytest.mark.skipif(not SOURCE.exists(), reason="shared test data absent")


def tournament_text() -> tuple[str, list[str]]:
    replay = replay_hand(parse_file(SOURCE))
    source = replay.source
    hero = source.seat_of("Hero")
    text = render_pokerstars(
        replay.hand,
        hand_id=source.hand_id,
        table_name="ignored for tournaments",
        started_at=source.started_at,
        viewer=hero,
        max_seats=8,
        tournament=TournamentHeading(
            tournament_id=664712833,
            buy_in=200,
            fee=20,
            level=31,
            table_number=3,
            finished=[("Player5", 28)],
        ),
    )
    return text, SOURCE.read_text().splitlines()


def test_r_hist_3_a_tournament_hand_has_the_pokerstars_tournament_header() -> None:
    text, _ = tournament_text()
    lines = text.splitlines()

    assert lines[0] == (
        "PokerStars Hand #91733835979: Tournament #664712833, $2+$0.20 USD "
        "7 Card Stud Limit - Level XXXI (250/500) - 2013/01/03 16:27:43 EET "
        "[2013/01/03 9:27:43 ET]"
    )  # the file's own: "$2.00+$0.20 USD Triple Stud (7 Card Stud Limit)", a mixed game
    assert lines[1] == "Table '664712833 3' 8-max"


def test_r_hist_3_tournament_chips_are_plain_numbers_as_in_the_real_file() -> None:
    text, original = tournament_text()
    lines = text.splitlines()

    for line in (
        "Seat 1: Hero (6920 in chips)",
        "Hero: posts the ante 50",
        "Total pot 1144 | Rake 0",
    ):
        assert line in lines
        assert any(source.strip() == line for source in original)
    assert "$" not in "\n".join(lines[1:])
    finished = "Player5 finished the tournament in 28th place"
    assert lines.index(finished) == lines.index("*** SUMMARY ***") - 1
    assert finished in original


def test_r_hist_3_the_tournament_text_parses_back_as_a_tournament_hand() -> None:
    text, _ = tournament_text()

    parsed = parse_hand(text)

    assert parsed.tournament is True
    assert parsed.dollars is False
    assert (parsed.small_bet, parsed.big_bet) == (250, 500)


def test_levels_in_roman_numerals_and_places_in_ordinals() -> None:
    assert [roman(n) for n in (1, 3, 4, 9, 12, 14, 31)] == [
        "I", "III", "IV", "IX", "XII", "XIV", "XXXI"
    ]  # fmt: skip
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 28)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "28th"
    ]  # fmt: skip
