"""The game's layouts checked offline against Discord's limits, and what their texts say: the table
in words (seats, UNO, top card), pictures' descriptions, big hands' pages, the color choice under
the cards, lowest-score texts and the round-over countdown."""

from __future__ import annotations

import dataclasses
import io
import random

import discord
from discord import ui

from bot.engine import RuleSet, Scoring
from bot.engine.cards import CARD_INDEX, Edition
from bot.engine.match import ScoreView
from bot.tables.commands import Actor, AddComputer, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import hand_of, snapshot_of
from bot.tables.table import Status, Table
from cogs.ui.hand import HAND_IMAGE, PAGE_SIZE, hand_layout
from cogs.ui.ids import Click, PickColor, Recap, decode
from cogs.ui.lobby import lobby_view
from cogs.ui.table import SCORES_IMAGE, TABLE_IMAGE, table_view
from fake_discord.discord_py import check_send
from tests.helpers import give, put_on_top


def picture(name: str) -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG"), filename=name)


def check(view: ui.LayoutView, *files: str, ephemeral: bool = False) -> None:
    assert check_send(view=view, files=[picture(f) for f in files], ephemeral=ephemeral) == []
    assert sum(1 for _ in view.walk_children()) <= 40


def items(view: ui.LayoutView) -> list[ui.Item[ui.LayoutView]]:
    return [c.item if isinstance(c, ui.DynamicItem) else c for c in view.walk_children()]


def text_of(view: ui.LayoutView) -> str:
    return "\n".join(c.content for c in view.walk_children() if isinstance(c, ui.TextDisplay))


def alts(view: ui.LayoutView) -> list[str]:
    return [
        item.description or ""
        for gallery in view.walk_children()
        if isinstance(gallery, ui.MediaGallery)
        for item in gallery.items
    ]


async def started(rules: RuleSet, computers: int = 9, name: str = "W" * 40) -> Table:
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(5), brain=None)
    host = Actor(1, name)
    await manager.create("tbl", 1, 100, host, rules, threads=True)
    for _ in range(computers):
        await manager.act("tbl", host, AddComputer("hard"))
    await manager.act("tbl", host, Start())
    return manager.tables["tbl"]


async def test_the_table_tells_in_words_what_the_picture_shows() -> None:
    table = await started(RuleSet(edition=Edition.CLASSIC))
    game = table.match.game  # type: ignore[union-attr]
    put_on_top(game, "red-5")
    game.color = 0
    first = (game.current + 1) % game.n
    game.hands[first] = [CARD_INDEX["blue-3"]]
    game.called[first] = True
    snapshot = snapshot_of(table)
    view = table_view(snapshot, image=TABLE_IMAGE)
    check(view, TABLE_IMAGE)
    text = text_of(view)
    assert "Top card: **Red 5**" in text and "**red**" in text
    names = snapshot.safe_names()
    current = game.current
    assert f"▶ **{names[current]}**" in text  # whose turn, in text
    assert f"• **{names[first]}** 🤖: 1 card, called UNO" in text
    for seat in range(game.n):
        count = len(game.hands[seat])
        assert f"**{names[seat]}**" in text and f": {count} card" in text
    [alt] = alts(view)
    assert alt.startswith("UNO table. Top card: Red 5, color red.")
    assert 0 < len(alt) <= 1024


async def test_the_picture_descriptions_stay_within_discords_limit() -> None:
    table = await started(RuleSet(edition=Edition.MARIO))
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    game.hands[seat] = [CARD_INDEX["yellow-reverse"]] * 95  # as the picture's limit allows
    hand = hand_of(table, seat)
    assert hand is not None and len(hand.view.cards) > 90
    layout = hand_layout(table.table_id, 1, hand)
    check(layout, HAND_IMAGE, ephemeral=True)
    [alt] = alts(layout)
    assert alt.startswith(f"Your hand, {len(hand.view.cards)} cards:") and len(alt) == 1024


async def test_a_big_hand_says_its_page_and_shows_the_wild_cards_first() -> None:
    table = await started(RuleSet(edition=Edition.CLASSIC), computers=1, name="Ann")
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "red-5")
    game.color = 0
    game.hands[seat] = [CARD_INDEX[c] for c in ["blue-1", "green-2"] * 12 + ["wild", "red-9"]]
    hand = hand_of(table, seat)
    assert hand is not None and len(hand.view.cards) == 26 > PAGE_SIZE
    first = hand_layout(table.table_id, 1, hand, page=0)
    check(first, HAND_IMAGE, ephemeral=True)
    assert "26 cards · page 1 of 2 (cards 1–20)" in text_of(first)
    labels = [c.label for c in items(first) if isinstance(c, ui.Button)]
    assert labels[0] == "1 · Wild"  # a wild is never left to the last page
    assert "◀" in labels and "▶" in labels
    second = hand_layout(table.table_id, 1, hand, page=1)
    check(second, HAND_IMAGE, ephemeral=True)
    assert "page 2 of 2 (cards 21–26)" in text_of(second)


async def test_choosing_a_wilds_color_keeps_the_cards_in_sight() -> None:
    table = await started(RuleSet(edition=Edition.CLASSIC), computers=1, name="Ann")
    game = table.match.game  # type: ignore[union-attr]
    seat = game.current
    put_on_top(game, "red-5")
    game.color = 0
    give(game, seat, ["wild"])
    hand = hand_of(table, seat)
    assert hand is not None
    index = hand.view.cards.index("wild")
    layout = hand_layout(table.table_id, 1, hand, picking=PickColor(index, "wild"))
    check(layout, HAND_IMAGE, ephemeral=True)
    labels = [c.label for c in items(layout) if isinstance(c, ui.Button)]
    cards = [label for label in labels if label and " · " in label]
    assert len(cards) == len(hand.view.cards)  # every card still shown
    assert labels[-5:] == ["Red", "Yellow", "Green", "Blue", "Back"]
    assert alts(layout)  # and the picture


async def test_lowest_scoring_says_when_the_match_ends_and_what_each_scores() -> None:
    rules = RuleSet(edition=Edition.SONIC, scoring=Scoring.LOWEST, target=100)
    table = await started(rules, computers=2, name="Ann")
    snapshot = snapshot_of(table)
    lobby = lobby_view(snapshot)
    check(lobby)
    header = text_of(lobby).splitlines()[0]
    assert header == (
        "## 🎴 UNO Sonic the Hedgehog · ends when someone reaches 100 points · lowest total wins"
    )
    scores = ScoreView(
        edition=Edition.SONIC,
        names=tuple(snapshot.names()),
        rounds=((0, 12, 31),),
        totals=(0, 12, 31),
        target=100,
        scoring="lowest",
        round_winners=(0,),
        winners=(),
        active=(True, True, True),
    )
    over = dataclasses.replace(
        snapshot, status=Status.ROUND_OVER, scores=scores, next_round_at=1_900_000_030.0
    )
    view = table_view(over, image=SCORES_IMAGE)
    check(view, SCORES_IMAGE)
    text = text_of(view)
    assert "Round over! The next round starts <t:1900000030:R>." in text
    assert "**Scores** · ends when someone reaches 100 points · lowest total wins" in text
    assert "Ann: **0** (+0 this round)" in text
    assert text.index("Ann: **0**") < text.index(": **31**")  # lowest first
    [alt] = alts(view)
    assert alt.startswith("Scoreboard after 1 round. Ann: 0;")
    won = dataclasses.replace(
        over, status=Status.FINISHED, winners=(0,), scores=replace_winners(scores, (0,))
    )
    final = table_view(won, image=SCORES_IMAGE)
    check(final, SCORES_IMAGE)
    assert "🏆 **Ann** won the match!" in text_of(final)
    assert [c.label for c in items(final) if isinstance(c, ui.Button)] == ["Rematch"]
    # A recorded round (its seed revealed) offers its recap beside Next round or Rematch, once
    # a card was played in it.
    for ended, first in ((over, "Next round"), (won, "Rematch")):
        shown = dataclasses.replace(ended, commitment="ab" * 32, revealed_seed=12345, round_plays=9)
        buttons = [
            c for c in items(table_view(shown, image=SCORES_IMAGE)) if isinstance(c, ui.Button)
        ]
        assert [b.label for b in buttons] == [first, "Round recap"]
        recap = decode(buttons[1].custom_id or "")
        assert recap == Click(shown.table_id, None, Recap(1), "table")
        forfeited = dataclasses.replace(shown, round_plays=0)
        labels = [
            c.label
            for c in items(table_view(forfeited, image=SCORES_IMAGE))
            if isinstance(c, ui.Button)
        ]
        assert labels == [first]


def replace_winners(scores: ScoreView, winners: tuple[int, ...]) -> ScoreView:
    return dataclasses.replace(scores, winners=winners)


async def test_the_lobby_names_the_edition_once() -> None:
    table = await started(RuleSet(edition=Edition.MARIO, target=None), computers=1, name="Ann")
    lobby = lobby_view(snapshot_of(table))
    header = text_of(lobby).splitlines()[0]
    assert header == "## 🎴 UNO Super Mario · a single round · first to go out wins"
