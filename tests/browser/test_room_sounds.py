"""Issue #14: sounds (the turn, the clock's last seconds, chips, cards) made with WebAudio,
with a switch; short deal animations that never hold a card back; both off where the system
asks for reduced motion."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Table
from tests.browser import steps
from tests.factories import PlayerFactory, funded
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH_DEALS = """() => {
    window.dealt = [];
    new MutationObserver((changes) => {
        for (const change of changes) for (const node of change.addedNodes) {
            if (!(node instanceof Element)) continue;
            for (const card of node.querySelectorAll(".card.dealt")) {
                window.dealt.push(getComputedStyle(card).animationName);
            }
        }
    }).observe(document.querySelector(".felt"), {childList: true, subtree: true});
}"""


@pytest.fixture(autouse=True)
def _tables_closed_after_test():
    yield
    Table.objects.update(is_open=False, next_hand_at=None)


def played(page) -> int:
    return int(page.locator("[data-room]").get_attribute("data-sounds-played") or 0)


def test_sounds_and_deal_animations_with_a_switch_and_reduced_motion(new_context):
    table = make_table(name="Noisy", action_clock=30)
    pages = []
    for name in ("ann", "ben"):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context().new_page()
        if name == "ben":
            page.emulate_media(reduced_motion="reduce")
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        page.evaluate(WATCH_DEALS)
        pages.append(page)
    ann, ben = pages
    expect(ann.locator("[data-sounds]")).to_be_checked()
    expect(ben.locator("[data-sounds]")).not_to_be_checked()  # reduced motion: off unless asked
    steps.sit(ann, 1, "20")
    steps.sit(ben, 2, "20")
    for page in pages:
        page.locator(".seat.mine .card.hole").nth(1).wait_for()

    ann.locator("[data-room][data-last-sound]").wait_for(state="attached")
    assert played(ann) > 0
    assert played(ben) == 0
    ann_turn = steps.to_act(ann) == 1
    if ann_turn:
        ann.locator('[data-room][data-last-sound="turn"]').wait_for(state="attached")

    steps.play_until_street(pages, 4)
    assert ann.evaluate("window.dealt").count("deal") >= 1  # 4th street's cards came in
    assert ben.evaluate("window.dealt") and set(ben.evaluate("window.dealt")) == {"none"}
    assert played(ben) == 0

    ann.locator("[data-sounds]").uncheck()
    before = played(ann)
    steps.play_until_street(pages, 5)
    assert played(ann) == before


COUNT_AUDIO = """() => {
    window.audioContextsMade = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
        constructor(...args) { super(...args); window.audioContextsMade += 1; }
    };
}"""


def test_sounds_wait_for_the_first_click_on_the_page(new_context):
    """Issue #21: a watcher who opens a table and clicks nothing got the card sounds' audio
    started anyway: Chromium refuses an AudioContext before a gesture and warns, once per
    sound (22 warnings an evening). Audio starts on the first click (or key), not before;
    from then on the sounds play."""
    table = make_table(name="Quiet until asked", action_clock=30)
    players = []
    for name in ("ann", "ben"):
        funded(PlayerFactory(username=name), 10_000)
        page = new_context().new_page()
        steps.log_in(page, name)
        steps.open_table(page, table.pk)
        players.append(page)
    watcher = new_context().new_page()
    warnings: list[str] = []
    watcher.on("console", lambda m: warnings.append(m.text) if "AudioContext" in m.text else None)
    watcher.add_init_script(f"({COUNT_AUDIO})()")
    steps.open_table(watcher, table.pk)
    expect(watcher.locator("[data-sounds]")).to_be_checked()
    steps.sit(players[0], 1, "20")
    steps.sit(players[1], 2, "20")
    # The deal drawn on the watcher's page: its card sounds have been asked for.
    expect(watcher.locator('.seat[data-seat="2"] .card')).to_have_count(3)
    assert watcher.evaluate("window.audioContextsMade") == 0
    assert played(watcher) == 0
    assert warnings == []

    watcher.get_by_role("heading", name="This hand").click()
    assert watcher.evaluate("window.audioContextsMade") == 1
    steps.play_until_street(players, 4)
    watcher.locator('[data-room][data-last-sound="card"]').wait_for(state="attached")
    assert played(watcher) > 0
    assert warnings == []
