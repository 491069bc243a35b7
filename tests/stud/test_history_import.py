"""Issue #24 item 5, the import: a player's own PokerStars stud text or PHH file is read,
every hand replayed through the engine and checked, and a hand that does not add up is
refused naming the line that fails (stud.history_in, stud.pokerstars_in, stud.phh).

Real PokerStars hands come from ../shared/testdata (the 58 split hands; the original files
of several hands, among them an 8-Game file whose 19 Razz hands replay too); damaged copies
of them are made here, one fault each: a missing action, chips that do not add up, a file cut
short."""

from __future__ import annotations

import random
import re

import pytest

from stud import Game, GameConfig, SeatSetup, StudHand
from stud.cards import card_text
from stud.history_in import MAX_HANDS, read_histories
from stud.history_text import render_pokerstars
from stud.phh import ALL_DOWN_CARDS, read_phh_file, render_phh
from stud.read_hand import HistoryRefused, ReadHand, Refusal, events
from tests.stud.pokerstars import shared_testdata, split_hand_files

CASH_FILE = "fpdb__cash_Stars_Stud_7-Stud-USD-0.04-0.08-200911.txt"
EIGHT_GAME_FILE = "fpdb__tour_Stars_Mixed_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"


def original(name: str) -> str:
    return (shared_testdata("pokerstars-stud", "hands") / name).read_text(encoding="utf-8-sig")


def split_hand(hand_id: str) -> str:
    return (shared_testdata("pokerstars-stud", "split") / f"{hand_id}.txt").read_text()


def only(text: str) -> ReadHand | Refusal:
    hands = read_histories(text).hands
    assert len(hands) == 1
    return hands[0]


def refusal(text: str) -> str:
    hand = only(text)
    assert isinstance(hand, Refusal), f"read, not refused: {text}"
    return hand.message


def line_of(text: str, number: int) -> str:
    return text.splitlines()[number - 1].rstrip()


# --- real hands -----------------------------------------------------------------------------


def test_every_real_pokerstars_hand_opens_but_the_one_with_a_broken_card() -> None:
    """All 58 split hands read and replay to the file's stacks, but 91733835979, whose
    "Dealt to Hero [...] [of]" names no card (FORMAT.md section 8): it is refused naming
    that line, since a hand the file cannot say is not replayed with a made-up card."""
    refused = {}
    for path in split_hand_files():
        hand = only(path.read_text(encoding="utf-8-sig"))
        if isinstance(hand, Refusal):
            refused[path.stem] = hand.message
            continue
        assert hand.format == "pokerstars" and hand.hand.is_over
        assert hand.title == f"PokerStars Hand #{path.stem}"
    assert list(refused) == ["91733835979"]
    assert re.search(
        r"line 46 \('Dealt to Hero \[Ah 3c Ac 8h Qd As\] \[of\]'\)", refused["91733835979"]
    )


def test_a_file_of_eleven_real_hands_opens_each_at_its_own_line() -> None:
    history = read_histories(original(CASH_FILE))
    assert history.format == "pokerstars"
    assert len(history.read) == 11 and not history.refused
    assert [hand.first_line for hand in history.read][:3] == [1, 69, 149]
    first = history.read[0]
    assert first.title == "PokerStars Hand #35874004239"
    assert first.hero_seat == 1  # "Dealt to Hero [3d Th As]"
    assert (first.table_name, first.started_at) == ("Atalante II", "2009/11/26 10:08:43 ET")


def test_r_razz_a_mixed_file_replays_its_stud_hands_and_leaves_other_games_out() -> None:
    """The 8-Game file: its 19 Razz hands (R-RAZZ-1..6: the highest door brings in, the
    lowest board acts first), 16 Stud and 18 Stud Hi/Lo hands all replay; the 84 Hold'em,
    Omaha and Triple Draw hands are left out as other games, not refused as damaged."""
    history = read_histories(original(EIGHT_GAME_FILE))
    games = [hand.hand.config.game for hand in history.read]
    assert (games.count(Game.RAZZ), games.count(Game.STUD), games.count(Game.STUD8)) == (19, 16, 18)
    assert not history.refused
    assert len(history.other_games) == 84
    assert "Triple Draw 2-7 Lowball Limit is not limit stud" in history.other_games[0].message


def test_r_hist_2_the_replay_has_only_the_down_cards_the_file_names() -> None:
    """35874039554: Hero folds on third street, trs2758 and RoadDevil fold later; Nikolay Zem
    and MasterTrini1 show, totof51's mucked cards are in the summary. The replay holds the
    down cards of Hero and of those three, as the file names them, and none of the folded
    players' (the engine dealt them cards the file never names)."""
    text = split_hand("35874039554")
    hand = only(text)
    assert isinstance(hand, ReadHand)
    private = [event for event in events(hand) if event.visible_to is not None]
    assert {event.visible_to for event in private} == {1, 3, 4, 8}
    for event in private:
        cards = event.payload["cards"]
        assert isinstance(cards, list)
        assert all(card_text(card) in text for card in cards)
    folded = {5, 6}  # trs2758, RoadDevil
    dealt_to_them = {card for seat in folded for card in hand.hand.down_cards(seat)}
    assert not dealt_to_them & hand.known
    assert not any(set(event.payload.get("cards", ())) & dealt_to_them for event in events(hand))


# --- damaged files: each refused with the line that fails --------------------------------


def test_a_missing_action_is_refused_at_the_line_where_the_turn_goes_wrong() -> None:
    """35874004239 without "Nikolay Zem: calls $0.02" (line 21): totof51's call, now line 21,
    comes when it is Nikolay Zem's turn."""
    text = split_hand("35874004239")
    assert line_of(text, 21) == "Nikolay Zem: calls $0.02"
    damaged = "\n".join(line for n, line in enumerate(text.splitlines(), 1) if n != 21)
    message = refusal(damaged)
    assert message.startswith("PokerStars Hand #35874004239, line 21 ('totof51: calls $0.02')")
    assert "it is Nikolay Zem (seat 3)'s turn, not totof51's" in message


def test_chips_that_do_not_add_up_are_refused_at_the_collect_line() -> None:
    """trs2758 collected $0.64, the file now says $0.65: the pots give $0.64."""
    text = split_hand("35874004239")
    damaged = text.replace("trs2758 collected $0.64 from pot", "trs2758 collected $0.65 from pot")
    number = damaged.splitlines().index("trs2758 collected $0.65 from pot") + 1
    message = refusal(damaged)
    assert f"line {number} ('trs2758 collected $0.65 from pot') does not add up" in message
    assert "the pots give trs2758 $0.64" in message


def test_a_total_pot_that_does_not_add_up_is_refused_at_its_line() -> None:
    text = split_hand("35874004239")
    damaged = text.replace("Total pot $0.67 | Rake $0.03", "Total pot $0.69 | Rake $0.03")
    message = refusal(damaged)
    assert "('Total pot $0.69 | Rake $0.03') does not add up" in message
    assert "the bets make a pot of $0.67" in message


def test_a_bet_the_rules_do_not_offer_is_refused_saying_what_they_offer() -> None:
    """R-BET-1: fifth street's bet is the big bet, $0.08; the file says $0.06."""
    text = split_hand("35874004239")
    damaged = text.replace(
        "trs2758: bets $0.08\nMasterTrini1: calls $0.08\nNikolay",
        "trs2758: bets $0.06\nMasterTrini1: calls $0.08\nNikolay",
    )
    assert damaged != text
    message = refusal(damaged)
    assert "('trs2758: bets $0.06') does not add up" in message
    assert "the rules offer trs2758: fold, check, bet $0.08" in message


def test_a_file_cut_short_is_refused_naming_its_last_line() -> None:
    """A file truncated in the middle of sixth street: the hand is cut short before its
    summary; the hands before it in the file still open."""
    whole = original(CASH_FILE)
    lines = whole.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith("PokerStars Game #")]
    last = starts[-1]
    sixth = next(n for n in range(last, len(lines)) if lines[n].startswith("*** 6th STREET"))
    cut = "\n".join(lines[: sixth + 2])
    history = read_histories(cut)
    assert len(history.read) == 10
    [refused] = history.refused
    assert refused.first_line == last + 1
    assert (
        f"is cut short: it ends at line {sixth + 2} ({lines[sixth + 1].rstrip()!r})"
        in refused.message
    )
    assert "before its summary" in refused.message


def test_a_hand_whose_actions_stop_before_the_end_is_refused() -> None:
    """The river's bet and fold removed: the file's actions end, the hand is not over."""
    text = split_hand("35874004239")
    damaged = text.replace("trs2758: bets $0.08\nMasterTrini1: folds \n", "", 1).replace(
        "trs2758: bets $0.08\nMasterTrini1: folds\n", "", 1
    )
    assert damaged != text
    message = refusal(damaged)
    assert "its actions end at line" in message and "but the hand is not over" in message
    assert "it is trs2758 (seat 5)'s turn on the river" in message


def test_a_file_that_is_neither_format_or_holds_too_many_hands_is_refused_whole() -> None:
    with pytest.raises(HistoryRefused, match=r"neither PokerStars hand histories .* nor a PHH"):
        read_histories("Hello, this is my poker diary.\nI won a lot.\n")
    with pytest.raises(HistoryRefused, match="The file is empty"):
        read_histories("\ufeff  \n")
    hand = split_hand("35874004239")
    with pytest.raises(
        HistoryRefused, match=f"holds {MAX_HANDS + 1} hands: open at most {MAX_HANDS}"
    ):
        read_histories("\n\n".join([hand] * (MAX_HANDS + 1)))


def test_a_hand_of_another_game_is_left_out_and_named() -> None:
    holdem = split_hand("35874004239").replace("7 Card Stud Limit", "Hold'em No Limit", 1)
    history = read_histories(holdem)
    assert not history.read and not history.refused
    assert "is not limit stud" in history.other_games[0].message


# --- the room's own files, and other rooms' PHH --------------------------------------------


def random_hand(game: Game, rng: random.Random) -> StudHand:
    """Short stacks (all-ins and side pots), 2 to 8 players (R-DEAL-5's reshuffled rivers
    and community card), folds where a check is free."""
    table = GameConfig(game=game, small_bet=100, big_bet=200, ante=10, bring_in=25)
    count = rng.randint(2, 8)
    seats = [
        SeatSetup(seat, f"P{seat}", rng.choice([300, 700, 5000])) for seat in range(1, count + 1)
    ]
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = StudHand.start(
        table, seats, deck, button=rng.randint(1, count), reshuffle_seed=rng.randint(0, 2**31)
    )
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        offers = hand.legal_actions(seat)
        passive = [o for o in offers if o.kind.value in ("check", "call", "bring_in")]
        offer = rng.choice(passive) if passive and rng.random() < 0.6 else rng.choice(offers)
        hand, _ = hand.apply(offer.for_seat(seat))
    return hand


@pytest.mark.parametrize("game", list(Game))
def test_r_hist_3_the_rooms_own_copies_open_again_to_the_same_stacks(game: Game) -> None:
    """R-HIST-2/3: a player's own copy of each of 60 random hands, as PokerStars text and as
    PHH (other players' unshown down cards left out), opens again to the same final stacks,
    mucked hands filled so they lose; the player's own down cards replay as dealt, and no
    card the copy leaves out is ever shown."""
    rng = random.Random(f"import-{game.value}")
    for number in range(60):
        hand = random_hand(game, rng)
        assert hand.result is not None
        viewer = rng.choice(hand.seats)
        copies = [
            render_pokerstars(
                hand,
                hand_id=number,
                table_name="T",
                started_at="2026/12/03 9:00:00 ET",
                viewer=viewer,
            ),
            render_phh(hand, hand_id=number, table_name="T", viewer=viewer),
        ]
        for text in copies:
            read = only(text)
            assert isinstance(read, ReadHand), read.message if isinstance(read, Refusal) else ""
            assert read.hand.result is not None
            assert dict(read.hand.result.final_stacks) == dict(hand.result.final_stacks), text
            shown = [card for e in events(read) if e.kind == "show" for card in e.payload["cards"]]
            assert set(shown) <= read.known
            # the player's own down cards are the ones dealt, and their replay shows them
            assert read.hand.down_cards(viewer) == hand.down_cards(viewer)
            mine = [e for e in events(read) if e.kind == "down_cards" and e.visible_to == viewer]
            assert [c for e in mine for c in e.payload["cards"]] == list(hand.down_cards(viewer))


def test_a_phhs_file_of_several_hands_opens_each_and_refuses_the_damaged_one() -> None:
    """PHH's .phhs: hands as TOML tables [1], [2]...; the second's raise is not offered."""
    rng = random.Random("phhs")
    hands = [random_hand(Game.RAZZ, rng) for _ in range(3)]
    parts = []
    for number, hand in enumerate(hands, start=1):
        body = render_phh(hand, hand_id=number, table_name="R", viewer=ALL_DOWN_CARDS)
        parts.append(f"[{number}]\n{body}")
    text = "\n".join(parts)
    second = text.index("[2]")
    cbr = re.compile(r'"(p\d) cbr (\d+)"')
    match = cbr.search(text, second)
    assert match
    damaged = text[: match.start()] + f'"{match[1]} cbr {int(match[2]) + 1}"' + text[match.end() :]
    read = read_phh_file(damaged)
    assert [type(hand).__name__ for hand in read] == ["ReadHand", "Refusal", "ReadHand"]
    refused = read[1]
    assert isinstance(refused, Refusal)
    number = damaged[: match.start()].count("\n") + 1
    assert (
        f"PHH hand 2, line {number} ('{match[1]} cbr {int(match[2]) + 1}') does not add up"
        in refused.message
    )
