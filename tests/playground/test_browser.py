"""The playground in a real browser: headless Chromium plays a whole single-round game against
computer players by clicking the page as a person would, reading only what the page shows. The
hand is opened once: it lights up by itself on every turn, with no Refresh and no second Show
my hand. Then the page is checked on a phone's width.

Skipped when Chromium or Playwright is missing, unless UNO_REQUIRE_BROWSER=1 (CI sets it)."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.playground import Playground

LAUNCH_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
COLORS = ("Red", "Yellow", "Green", "Blue")
WAIT_MS = 20_000
MAX_STEPS = 400


def chromium_path() -> str | None:
    found = shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def missing(reason: str) -> None:
    if os.environ.get("UNO_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (UNO_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


@pytest.fixture
async def page() -> AsyncIterator[Any]:
    path = chromium_path()
    if path is None:
        missing("Chromium not found: install Debian's chromium to run the browser test")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        missing("Playwright for Python is not installed (pip install -e '.[dev]')")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, headless=True, args=LAUNCH_FLAGS)
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 900})
            tab = await context.new_page()
            tab.set_default_timeout(WAIT_MS)
            yield tab
        finally:
            await browser.close()


@pytest.fixture
async def playground() -> AsyncIterator[Playground]:
    session = Playground(
        users=2,
        bot_options={"rng": random.Random(2024), "computer_delay": (0.05, 0.05)},
    )
    await session.start()
    try:
        yield session
    finally:
        await session.stop()


FINISHED = "!!document.querySelector(\"#messages img[src*='scores.png']\")"
# The newest table message: the one with a "Show my hand" button.
TABLE_JS = """[...document.querySelectorAll('#messages article.message')]
  .filter(a => [...a.querySelectorAll('button .label')]
    .some(l => l.textContent === 'Show my hand'))
  .pop()"""


def message_with(tab: Any, button: str) -> Any:
    """The newest message showing a button with this label."""
    name = tab.get_by_role("button", name=button)
    return tab.locator("#messages article.message").filter(has=name).last


# What a person looks at in the hand: (index, label, style) of each enabled button.
HAND_BUTTONS = """
(article) => [...article.querySelectorAll('button[data-action="click"]')]
  .map((b, index) => ({
    index,
    label: (b.querySelector('.label') || {}).textContent || '',
    style: [...b.classList].find(c => c !== 'button') || '',
    enabled: !b.disabled,
  }))
  .filter(b => b.enabled)
"""


def choose(buttons: list[dict[str, Any]]) -> int | None:
    """A simple player: a color when asked, UNO! before the last card, any playable card,
    else draw, keep what was drawn, or accept what is coming."""
    by_label = {b["label"]: b["index"] for b in buttons}
    for color in COLORS:
        if color in by_label:
            return by_label[color]
    if "UNO!" in by_label:
        return by_label["UNO!"]
    playable = [b["index"] for b in buttons if b["style"] == "success"]
    if playable:
        return playable[0]
    for label in ("Draw", "Keep it"):
        if label in by_label:
            return by_label[label]
    accept = [b["index"] for b in buttons if b["label"].startswith("Accept")]
    return accept[0] if accept else None


# The hand offers a move (what ``choose`` would press), or the round is over.
LIT_JS = f"""([id]) => {{
  if ({FINISHED}) return true;
  const hand = document.querySelector(`article.message[data-id="${{id}}"]`);
  if (!hand) return false;
  const asks = ['Red', 'Yellow', 'Green', 'Blue', 'UNO!', 'Draw', 'Keep it'];
  return [...hand.querySelectorAll('button[data-action="click"]:not([disabled])')].some(b => {{
    const label = (b.querySelector('.label') || {{}}).textContent || '';
    return b.classList.contains('success') || asks.includes(label) || label.startsWith('Accept');
  }});
}}"""


async def open_hand(tab: Any) -> Any | None:
    """Press "Show my hand" on the table and wait for the private hand (None: the bot
    answered otherwise, e.g. because the round ended meanwhile)."""
    table = message_with(tab, "Show my hand")
    private = tab.locator("#messages article.message.ephemeral:not(.loading)")
    hands = private.filter(has=tab.locator('img[src*="hand.png"]'))
    before = await private.count()
    latest = ["", ""]
    if await hands.count():
        latest = [
            await hands.last.get_attribute("data-id") or "",
            await hands.last.get_attribute("data-rev") or "",
        ]
    try:
        await table.get_by_role("button", name="Show my hand").click(timeout=3000)
    except Exception as exc:  # the table moved on (or the round ended) under the pointer
        if type(exc).__name__ != "TimeoutError":
            raise
        return None
    await tab.wait_for_function(
        f"""([before, id, rev]) => {{
            if ({FINISHED}) return true;
            const shown = '#messages article.message.ephemeral:not(.loading)';
            if (document.querySelectorAll(shown).length > before) return true;
            const hand = id && document.querySelector(`article.message[data-id="${{id}}"]`);
            return Boolean(hand && hand.dataset.rev !== rev);
        }}""",
        arg=[before, *latest],
    )
    newest = hands.last if await private.count() == before else private.last  # or in place
    if await newest.locator('img[src*="hand.png"]').count() == 0:
        return None
    # That one message, found by its id: it stays this hand while it is redrawn or closed.
    return tab.locator(f'article.message[data-id="{await newest.get_attribute("data-id")}"]')


async def play_hand(tab: Any, hand: Any) -> bool:
    """Click the hand until it offers nothing to do; whether anything was played."""
    played = False
    while True:
        if await hand.locator('img[src*="hand.png"]').count() == 0:
            return played  # the game is over: the hand says so
        buttons = await hand.evaluate(HAND_BUTTONS)
        pick = choose(buttons)
        if pick is None:
            return played
        hand_id = await hand.get_attribute("data-id")
        rev = await hand.get_attribute("data-rev")
        await hand.locator('button[data-action="click"]').nth(pick).click()
        # The bot redraws the hand (or the page says the click failed: the test then fails).
        await tab.wait_for_function(
            """([id, rev]) => {
                const hand = document.querySelector(`article.message[data-id="${id}"]`);
                return !hand || hand.dataset.rev !== rev || hand.querySelector('.failed-note');
            }""",
            arg=[hand_id, rev],
        )
        played = True


async def start_game(tab: Any) -> None:
    """`/uno new` for a single round, two computers, start, and go to the game's thread."""
    box = tab.locator("#command")
    await box.click()
    await box.type("/uno new len")
    await tab.locator("#suggestions li:has(.label:text-is('length:'))").wait_for()
    await box.press("Tab")
    await tab.locator("#suggestions li:has(.label:text-is('round'))").click()
    assert await box.input_value() == "/uno new length:round "
    await box.press("Enter")
    lobby = message_with(tab, "Start")
    await lobby.wait_for()
    assert "single round" in await lobby.inner_text()
    for count in (2, 3):
        await lobby.get_by_role("button", name="Add computer (easy)").click()
        await tab.locator("#messages").get_by_text(f"Players ({count}/").wait_for()
    await lobby.get_by_role("button", name="Start", exact=True).click()
    thread = tab.locator("#channels li.thread button").first
    await thread.click()
    await tab.locator("#messages img[src*='table.png']").first.wait_for()


async def test_a_whole_round_against_computers_by_clicks(
    page: Any, playground: Playground, tmp_path: Path
) -> None:
    try:
        await play_a_round(page, playground)
    except Exception:
        # What the page showed, to see why: a screenshot and the text.
        shot = tmp_path / "page.png"
        await page.screenshot(path=str(shot), full_page=True)
        text = await page.locator("body").inner_text()
        print(f"page when it failed ({shot}):\n{text[-4000:]}")
        raise


async def play_a_round(tab: Any, playground: Playground) -> None:

    await tab.goto(playground.url)
    await tab.locator("body[data-ready='true']").wait_for()
    banner = await tab.locator(".banner").inner_text()
    assert "Local playground" in banner and "not Discord" in banner
    await start_game(tab)

    scores = tab.locator("#messages img[src*='scores.png']")
    hand = None
    turns = 0
    for _ in range(MAX_STEPS):
        await tab.wait_for_function(f"() => {FINISHED} || {TABLE_JS}")
        if await scores.count():
            break
        if hand is None:  # the one press of Show my hand
            hand = await open_hand(tab)
            if hand is None:
                continue
            assert "Only you can see this" in await hand.inner_text()
        # The computers move; the hand lights up when Alice may play, by itself.
        await tab.wait_for_function(LIT_JS, arg=[await hand.get_attribute("data-id")])
        if await scores.count():
            break
        if await play_hand(tab, hand):
            turns += 1
    else:
        pytest.fail("the round did not end")
    assert turns > 1
    pressed = button_actions(playground, playground.world.users[0])
    assert pressed.count("hand") == 1 and "page" not in pressed  # Show my hand once, no Refresh

    await scores.first.wait_for()
    final = (
        tab.locator("#messages article.message")
        .filter(has=tab.locator("img[src*='scores.png']"))
        .last
    )
    assert "won" in await final.inner_text()
    # The hand closed with the round: no card buttons, the scores instead.
    assert await hand.locator('button[data-action="click"]').count() == 0  # type: ignore[union-attr]
    assert "Scores" in await hand.inner_text()  # type: ignore[union-attr]
    # No interaction failed and Discord would have accepted every message. (A rate limit
    # may show: the page says so, and discord.py waits and retries.)
    broken = tab.locator("#notices .notice.failed, #notices .notice.rejected")
    assert await broken.count() == 0, await tab.locator("#notices").inner_text()
    # Alice's hands are hers alone: Bob sees the table but none of them.
    await tab.locator("#people button", has_text="Bob").click()
    await tab.wait_for_function(
        "() => !document.querySelector('#messages article.message.ephemeral')"
    )
    assert await scores.count() == 1

    # On a phone's width the page fits, its pictures all show, and its emoji are drawn.
    await tab.locator("#people button", has_text="Alice").click()
    await tab.locator("#messages article.message.ephemeral").first.wait_for()
    await tab.set_viewport_size({"width": 390, "height": 844})
    fits = await tab.evaluate(
        """() => [document.documentElement, document.body, document.querySelector('#messages')]
            .every(e => e.scrollWidth <= e.clientWidth + 1)"""
    )
    assert fits, "the page is wider than a 390 px window"
    broken = await tab.evaluate(
        "() => [...document.querySelectorAll('#messages img')].filter(i => !i.naturalWidth).length"
    )
    assert broken == 0
    assert await tab.locator("#messages svg.drawn-emoji").count() > 0
    raw = await tab.evaluate(
        r"""() => /[\u{1F7E5}-\u{1F7EB}\u{1F3B4}\u{1F916}\u{1F3C6}]/u.test(
            document.querySelector('#messages').innerText)"""
    )
    assert not raw, "an emoji was left to the system's fonts"


def button_actions(playground: Playground, user: Any) -> list[str]:
    """The actions of every button this person pressed (from the buttons' custom ids)."""
    return [
        str(itx.payload.get("data", {}).get("custom_id", "")).split(":")[3]
        for itx in playground.fake.interactions.values()
        if itx.user.id == user.id and itx.source_message is not None
    ]
