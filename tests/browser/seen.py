"""What the checks that look at a page measure (tests/browser/test_pages_as_seen.py,
docs/browser.md): the layout as drawn, axe-core's accessibility rules, and the picture
against its committed baseline."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
BASELINES = Path(__file__).resolve().parent / "baselines"
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
DIFFS = ROOT / "var" / "screenshot-diffs"
# `make screenshots`: the pictures are written as the new baselines (and docs/screenshots/).
UPDATE = os.environ.get("POKERROOM_UPDATE_SCREENSHOTS") == "1"
# A pixel whose channels differ by more than this is changed (antialiasing stays under it);
# a picture with more than this share of changed pixels has changed.
PIXEL_TOLERANCE = 48
CHANGED_SHARE = 0.002


# Every element that shows text of its own and clips it: cut by its own overflow (wider or
# taller than its box, an ellipsis) or lying outside an ancestor that clips.
CLIPPED_JS = """() => {
    const clips = v => v === "hidden" || v === "clip";
    const name = e => {
        const seat = e.closest("[data-seat]");
        return `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`
            + (seat ? ` (seat ${seat.dataset.seat})` : "")
            + `: "${e.textContent.trim().slice(0, 40)}"`;
    };
    const found = [];
    for (const e of document.body.querySelectorAll("*")) {
        if (!([...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))) continue;
        if (e.closest(".visually-hidden, script, style, noscript, option, dialog:not([open])")) {
            continue;
        }
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const cs = getComputedStyle(e);
        if (cs.visibility === "hidden" || cs.display === "none") continue;
        if ((clips(cs.overflowX) || cs.textOverflow === "ellipsis")
                && e.scrollWidth > e.clientWidth + 1) {
            found.push(`${name(e)} is ${e.clientWidth}px wide for ${e.scrollWidth}px of text`);
            continue;
        }
        if (clips(cs.overflowY) && e.scrollHeight > e.clientHeight + 1) {
            found.push(`${name(e)} is ${e.clientHeight}px tall for ${e.scrollHeight}px of text`);
            continue;
        }
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            const as = getComputedStyle(a);
            if (!clips(as.overflowX) && !clips(as.overflowY)) continue;
            if (a.classList.contains("visually-hidden")) break;
            const ar = a.getBoundingClientRect();
            const out = (clips(as.overflowX) && (r.left < ar.left - 1 || r.right > ar.right + 1))
                || (clips(as.overflowY) && (r.top < ar.top - 1 || r.bottom > ar.bottom + 1));
            if (out) {
                found.push(`${name(e)} is cut by ${a.tagName.toLowerCase()}.`
                    + `${[...a.classList].join(".")}`);
                break;
            }
        }
    }
    return found;
}"""

# How far the document reaches past the viewport's right edge, and what sticks out.
SIDEWAYS_JS = """() => {
    const width = document.documentElement.clientWidth;
    const scroll = document.scrollingElement.scrollWidth;
    if (scroll <= width) return [];
    const wide = [...document.body.querySelectorAll("*")].filter(e => {
        const r = e.getBoundingClientRect();
        return r.width && r.right > width + 1 && getComputedStyle(e).position !== "fixed";
    }).slice(0, 4).map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`
        + ` reaches ${Math.round(e.getBoundingClientRect().right)}px`);
    return [`the page is ${scroll}px wide in a ${width}px viewport`, ...wide];
}"""


def clipped_text(page: Any) -> list[str]:
    return page.evaluate(CLIPPED_JS)


def sideways_scroll(page: Any) -> list[str]:
    return page.evaluate(SIDEWAYS_JS)


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is drawn."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] not in ("serious", "critical"):
            continue
        targets = [", ".join(node["target"]) for node in violation["nodes"]][:4]
        found.append(f"{violation['id']} ({violation['impact']}): {'; '.join(targets)}")
    return found


# What changes with the run's own clock, masked (magenta) in the compared pictures only: the
# running clocks, every <time> (the ledger's, the hand list's, the audit's hour), and the
# dashboard's "as of" line and 30-day chart ([data-run-day]: they end on the day of the run);
# and what names the deployment or the run, not the look ([data-deployment]: the dashboard's
# "database sqlite" or "postgresql"; a hand's entry in the fairness chain, with its table id,
# time, hashes and the server's address), the same pictures on both shapes and in any order of
# the suite. The docs' pictures show them all.
MASKED = (
    ".clock, [data-t-time], .tv-time, [data-clock-seconds], time, [data-run-day], [data-deployment]"
)


def picture_changes(page: Any, name: str, *, docs_name: str | None = None) -> list[str]:
    """Takes the state's picture and compares it with tests/browser/baselines/<name>.png;
    with UPDATE, writes it as the baseline (and as docs/screenshots/<docs_name>.png)."""
    page.emulate_media(reduced_motion="reduce")
    shot = page.screenshot(
        full_page=True,
        animations="disabled",
        caret="hide",
        mask=[page.locator(MASKED)],
    )
    baseline = BASELINES / f"{name}.png"
    taken = DIFFS / f"{name}.png"
    DIFFS.mkdir(parents=True, exist_ok=True)
    taken.write_bytes(shot)
    if UPDATE:
        BASELINES.mkdir(parents=True, exist_ok=True)
        baseline.write_bytes(shot)
        if docs_name:  # the README's picture shows the clock: the mask is for comparing only
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            unmasked = page.screenshot(full_page=True, animations="disabled", caret="hide")
            (DOCS_SCREENSHOTS / f"{docs_name}.png").write_bytes(unmasked)
        return []
    if not baseline.exists():
        return [f"{name}: no baseline {baseline.relative_to(ROOT)} (make screenshots)"]
    return compare(Image.open(baseline), Image.open(taken), name)


def compare(expected: Image.Image, actual: Image.Image, name: str) -> list[str]:
    """Pillow's difference of the two pictures: where it is above the tolerance, in a box,
    with a diff picture (the changed pixels red over a faded copy of the new one)."""
    expected, actual = expected.convert("RGB"), actual.convert("RGB")
    if expected.size != actual.size:
        return [f"{name}: the picture is {actual.size}, the baseline {expected.size}"]
    changed = ImageChops.difference(expected, actual).convert("L")
    changed = changed.point(lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    count = changed.histogram()[255]
    width, height = actual.size
    if count <= CHANGED_SHARE * width * height:
        return []
    box = changed.getbbox()
    faded = Image.blend(actual, Image.new("RGB", actual.size, "white"), 0.7)
    faded.paste(Image.new("RGB", actual.size, (230, 0, 0)), mask=changed)
    diff = DIFFS / f"{name}-diff.png"
    faded.save(diff)
    return [
        f"{name}: {count} pixels ({count / (width * height):.2%}) changed within {box} "
        f"(left, top, right, bottom); see {diff.relative_to(ROOT)}"
    ]
