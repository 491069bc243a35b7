"""static/js/tournament/format.js and live.js in Chromium: what the tournament pages write
(the clock, the level, places, the notices) and the snapshots kept by seq."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.asyncio

FORMAT = "/static/js/tournament/format.js"


async def run(modules: Any, script: str) -> Any:
    """The body of an async function run in the page (the modules imported there)."""
    return await modules.page.evaluate(f"async () => {{ {script} }}")


def tournament(**fields: Any) -> dict[str, Any]:
    return {
        "id": 7,
        "seq": 3,
        "status": "running",
        "entrants": 9,
        "start_when_registered": None,
        "clock": {
            "level_ms_left": 754_000,
            "break_ms_left": None,
            "starts_ms_left": None,
            "on_break": False,
            "paused": False,
            "level_timer_expired": False,
        },
        "standings": [],
        **fields,
    }


async def test_the_clock_counts_down_from_ms_left_on_the_local_clock(modules):
    """DESIGN.md "Time": the deadline is the receipt time plus ms_left, never the wall clock."""
    t = tournament()
    deadlines = await modules.call(FORMAT, "clockDeadlines", t, 1000)
    assert deadlines == {"level": 755_000, "break": None, "starts": None}

    shown = await modules.call(FORMAT, "clockNow", t, deadlines, 61_000)

    assert shown == {"label": "Time left in level", "time": "11:34", "mode": "level"}


async def test_r_tour_5_a_break_and_a_pause_show_their_own_clock(modules):
    on_break = tournament(
        status="on_break", clock={**tournament()["clock"], "break_ms_left": 59_500}
    )
    deadlines = await modules.call(FORMAT, "clockDeadlines", on_break, 0)
    assert await modules.call(FORMAT, "clockNow", on_break, deadlines, 0) == {
        "label": "Break: the next level starts in",
        "time": "1:00",
        "mode": "break",
    }
    paused = tournament(status="paused", clock={**tournament()["clock"], "level_ms_left": 90_000})
    deadlines = await modules.call(FORMAT, "clockDeadlines", paused, 0)
    # Paused: the time left stands still whatever the local clock says.
    assert (await modules.call(FORMAT, "clockNow", paused, deadlines, 50_000))["time"] == "1:30"


async def test_r_tour_6_an_equal_deals_level_says_it_ends_when_all_have_dealt(modules):
    t = tournament(clock={**tournament()["clock"], "level_timer_expired": True})
    deadlines = await modules.call(FORMAT, "clockDeadlines", t, 0)

    shown = await modules.call(FORMAT, "clockNow", t, deadlines, 0)

    assert shown["label"] == "Level ends when everyone has dealt equally"
    assert shown["time"] == ""  # the words in place of the countdown, never "0:00"


async def test_r_ante_3_a_dealer_only_level_is_marked(modules):
    level = {
        "number": 3,
        "ante": 25,
        "bring_in": 10,
        "small_bet": 25,
        "big_bet": 50,
        "dealer_only_ante": True,
    }

    assert await modules.call(FORMAT, "levelText", level) == (
        "Level 3 · 25/50 · ante 25 (dealer only) · bring-in 10"
    )


async def test_the_notices_say_where_and_which_place(modules):
    moved = {"table_id": 12, "table_number": 2, "seat": 5}
    assert await modules.call(FORMAT, "movedText", moved) == "You were moved to table 2, seat 5."
    for place, words in (
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (22, "22nd"),
    ):
        assert await modules.call(FORMAT, "ordinal", place) == words


async def test_tournament_tables_count_chips_not_dollars(modules):
    """R-TOUR-1: 800 chips are 800, not $8.00; the wallet stays in dollars."""
    script = """
      const money = await import("/static/js/money.js");
      const before = money.amount(1500);
      money.useChipUnits(true);
      const after = [money.amount(1500), money.stakesText({small_bet: 25, big_bet: 50}),
                     money.dollars(1500)];
      money.useChipUnits(false);
      return [before, ...after];
    """
    assert await run(modules, script) == ["$15.00", "1,500", "25/50", "$15.00"]


async def test_an_older_snapshot_overtaken_on_the_way_is_dropped(modules):
    script = """
      const { TournamentState } = await import("/static/js/tournament/live.js");
      const state = new TournamentState();
      const frame = (seq, name) => ({ type: "tournament", seq, tournament: {
        seq, name, status: "running", clock: {}, standings: [] } });
      const kept = [state.receive(frame(5, "five"), 0), state.receive(frame(4, "four"), 0),
                    state.receive(frame(6, "six"), 0)];
      return [kept, state.tournament.name];
    """
    assert await run(modules, script) == [[True, False, True], "six"]


async def test_a_tournament_hand_replays_in_chips(modules):
    """R-TOUR-1: a tournament hand's page shows tournament chips, never dollars."""
    script = """
      const { mountReplayer } = await import("/static/js/replayer.js");
      const start = { seq: 1, kind: "hand_start", payload: {
        game: "stud", button: 1, small_bet: 25, big_bet: 50, ante: 5, bring_in: 10,
        seats: [{ seat: 1, name: "ann", stack: 1500 }, { seat: 2, name: "ben", stack: 800 }] } };
      const shown = (isTournament) => {
        const element = document.createElement("div");
        document.body.append(element);
        mountReplayer(element, { hand_id: 1, number: 1, viewer_seat: null, events: [start],
          table: { name: "T", game: "stud", seats: 8, small_bet: 25, big_bet: 50,
                   is_tournament: isTournament } });
        const stacks = [...element.querySelectorAll(".plate .stack")].map((s) => s.textContent);
        element.remove();
        return stacks;
      };
      return [shown(true), shown(false)];
    """
    assert await run(modules, script) == [["1,500", "800"], ["$15.00", "$8.00"]]


LEVELS = [
    {
        "number": 1,
        "ante": 25,
        "bring_in": 10,
        "small_bet": 25,
        "big_bet": 50,
        "minutes": 3,
        "dealer_only_ante": True,
        "equal_deals": True,
        "break_minutes": 0,
    },
    {
        "number": 2,
        "ante": 10,
        "bring_in": 15,
        "small_bet": 30,
        "big_bet": 60,
        "minutes": 3,
        "dealer_only_ante": False,
        "equal_deals": False,
        "break_minutes": 0,
    },
    {
        "number": 3,
        "ante": 10,
        "bring_in": 25,
        "small_bet": 50,
        "big_bet": 100,
        "minutes": 3,
        "dealer_only_ante": False,
        "equal_deals": False,
        "break_minutes": 0,
    },
]


async def bar_of(modules: Any, t: dict[str, Any], table_id: int, now: int = 0) -> dict[str, Any]:
    """What the table's bar reads: level, limits, antes, next, the time's label and time."""
    deadlines = await modules.call(FORMAT, "clockDeadlines", t, 0)
    shown = await modules.call(FORMAT, "clockNow", t, deadlines, now)
    bar = await modules.call(FORMAT, "tableBar", t, table_id, shown)
    return {
        "level": bar["level"]["number"],
        "limits": await modules.call(FORMAT, "limitsText", bar["level"]),
        "ante": await modules.call(FORMAT, "anteText", bar["level"]),
        "next": await modules.call(FORMAT, "levelBriefText", bar["next"]),
        "label": bar["label"],
        "time": bar["time"],
    }


async def test_r_tour_6_each_tables_bar_shows_its_own_level_and_waits_without_a_countdown(
    modules,
):
    """Issue #28 (the bar): past an equal-deals level's timer, the table still dealing it says
    the level ends when everyone has dealt equally, in place of the countdown (it read
    "0:00" beside the words); the table done with it early shows the level it deals now, with
    that level's own limits and antes (it showed the clock's, level 1's), and that level's
    time, which runs from when every table is done."""
    clock = {**tournament()["clock"], "level": 1, "level_ms_left": 0, "level_timer_expired": True}
    t = tournament(
        clock=clock,
        levels=LEVELS,
        level=LEVELS[0],
        next_level=LEVELS[1],
        tables=[{"table_id": 11, "level": 1}, {"table_id": 12, "level": 2}],
    )

    assert await bar_of(modules, t, 11) == {
        "level": 1,
        "limits": "25/50",
        "ante": "25 (dealer only) · bring-in 10",
        "next": "30/60, ante 10",
        "label": "Level ends when everyone has dealt equally",
        "time": "",
    }
    assert await bar_of(modules, t, 12) == {
        "level": 2,
        "limits": "30/60",
        "ante": "10 · bring-in 15",
        "next": "50/100, ante 10",
        "label": "Time left, from when every table has dealt equally",
        "time": "3:00",
    }


async def test_r_tour_6_once_every_table_is_done_the_bar_counts_the_next_level_down(modules):
    clock = {**tournament()["clock"], "level": 2, "level_ms_left": 170_000}
    t = tournament(
        clock=clock,
        levels=LEVELS,
        level=LEVELS[1],
        next_level=LEVELS[2],
        tables=[{"table_id": 11, "level": 2}],
    )

    bar = await bar_of(modules, t, 11, now=10_000)

    assert bar == {
        "level": 2,
        "limits": "30/60",
        "ante": "10 · bring-in 15",
        "next": "50/100, ante 10",
        "label": "Time left",
        "time": "2:40",
    }


async def test_r_tour_5_a_hand_in_play_at_a_levels_end_shows_its_own_stakes(modules):
    """The hand in play keeps the stakes it was dealt with (R-TOUR-5): the bar shows them,
    and that the clock's level comes with the next hand."""
    clock = {**tournament()["clock"], "level": 3, "level_ms_left": 180_000}
    t = tournament(
        clock=clock, levels=LEVELS, level=LEVELS[2], tables=[{"table_id": 11, "level": 2}]
    )

    bar = await bar_of(modules, t, 11)

    assert (bar["level"], bar["limits"]) == (2, "30/60")
    assert (bar["label"], bar["time"]) == ("Level 3 from the next hand; time left", "3:00")


async def test_r_tour_6_a_table_done_early_with_a_break_to_follow_waits_without_a_time(modules):
    levels = [{**LEVELS[0], "break_minutes": 1}, *LEVELS[1:]]
    clock = {**tournament()["clock"], "level": 1, "level_ms_left": 0, "level_timer_expired": True}
    t = tournament(
        clock=clock,
        levels=levels,
        level=levels[0],
        tables=[{"table_id": 11, "level": 1}, {"table_id": 12, "level": 2}],
    )

    bar = await bar_of(modules, t, 12)

    assert (bar["level"], bar["limits"]) == (2, "30/60")  # dealt after the break
    assert bar["label"] == "Waiting for the other tables to deal equally, then a break"
    assert bar["time"] == ""


async def test_a_page_opened_after_the_move_still_tells_the_player_where_they_went(modules):
    """Issue #21 (12): a player moved to table 2 and on to table 3 before table 2's page had
    its tournament socket missed the notice (the frame went before the page subscribed, and
    the page had never seen them seated there): the snapshot's record of the tables they
    left names table 2, so its page tells them and takes them on."""
    panel = "/static/js/tournament/table_panel.js"
    mine = {"player_id": 5, "table_id": 30, "table": 3, "seat": 1, "tables_left": [10, 20]}

    assert await modules.call(panel, "movedAway", mine, 20, False) is True
    assert await modules.call(panel, "movedAway", mine, 10, False) is True
    assert await modules.call(panel, "movedAway", mine, 30, True) is False  # seated here
    watcher = {**mine, "tables_left": []}  # never at table 40: a page they only watch
    assert await modules.call(panel, "movedAway", watcher, 40, False) is False


async def test_a_closed_tournament_table_says_where_its_player_went_never_a_balance(modules):
    """Issue #21 (3): a merged tournament table said "Every seat was cashed out: chips went
    back to their players' balances"; tournament chips never go to a balance."""
    panels = "/static/js/table/panels.js"
    t = tournament(over=False, standings=[{"player_id": 5, "table_id": 30, "table": 3, "seat": 1}])

    mine = await modules.call(panels, "tournamentClosedText", t, 5)
    other = await modules.call(panels, "tournamentClosedText", t, 9)
    over = await modules.call(panels, "tournamentClosedText", {**t, "over": True}, 9)

    assert mine == "This table is closed. You were moved to table 3, seat 1."
    assert (
        other == "This table is closed. Its players were moved to another table of the tournament."
    )
    assert over == "This table is closed: the tournament is over."
    assert all("balance" not in text for text in (mine, other, over))


async def test_r_tour_1_the_add_on_is_offered_to_a_player_who_may_buy_it(modules):
    """Issue #21 item 9: the table's bar offers the add-on while the snapshot says it is
    open and the viewer plays on without one; in the break before the level whose first
    hand closes it, it is the last chance."""
    me = {"player_id": 5, "add_on": False, "place": None}
    t = tournament(
        add_on_open=True,
        add_on_price=1500,
        add_on_chips=400,
        add_on_until_level=6,
        next_level={"number": 5},
        standings=[me],
    )
    on_break = {**t, "status": "on_break", "next_level": {"number": 6}}

    level_4 = await modules.call(FORMAT, "addOnOffer", t, 5)
    break_5 = await modules.call(FORMAT, "addOnOffer", on_break, 5)

    assert level_4 == {
        "text": "400 chips for $15.00",
        "until": "until level 6",
        "lastChance": False,
    }
    assert break_5 == {
        "text": "400 chips for $15.00",
        "until": "closes when level 6's first hand is dealt",
        "lastChance": True,
    }
    bought = {**t, "standings": [{**me, "add_on": True}]}
    out = {**t, "standings": [{**me, "place": 4}]}
    for gone in ({**t, "add_on_open": False}, bought, out):
        assert await modules.call(FORMAT, "addOnOffer", gone, 5) is None
    assert await modules.call(FORMAT, "addOnOffer", t, 9) is None  # not entered


async def test_r_tour_6_paused_while_a_table_waits_for_equal_deals_shows_no_time(modules):
    """R-TOUR-5 with R-TOUR-6: a pause past the equal-deals level's timer has no time left to
    stand still at (it read "0:00")."""
    clock = {**tournament()["clock"], "level": 1, "level_ms_left": None, "paused": True}
    t = tournament(
        status="paused",
        clock={**clock, "level_timer_expired": True},
        levels=LEVELS,
        level=LEVELS[0],
        tables=[{"table_id": 11, "level": 1}],
    )

    bar = await bar_of(modules, t, 11)

    assert (bar["label"], bar["time"]) == ("Paused by the tournament director", "")
