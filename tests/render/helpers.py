"""Every picture of every edition drawn with given names and words: shared by the renderer's
and the languages' tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from bot.engine.cards import Edition
from bot.engine.match import ScoreView
from bot.engine.phase import Phase
from bot.engine.snapshot import HandView, PublicView
from bot.render import hand, leaderboard, scores, table
from bot.render.samples import (
    sample_hand,
    sample_scores,
    sample_standings,
    sample_table,
)
from bot.render.words import Words

CYRILLIC_NAMES = ("Ёжик", "Наташа", "Юрий", "Щукин", "Эля", "Фёдор", "Жанна", "Цветан", "Ян", "Ия")


def render_everything(words: Words, names: tuple[str, ...], title: str) -> None:
    for edition in Edition:
        for view in tables(edition, names):
            table.render_table(view, words=words)
            # Tournament players on half the turn timer, with and without a timer.
            table.render_table(view, words=words, berserk=(0, 1, 3), seconds=30)
            table.render_table(view, words=words, berserk=(2,))
        for hand_view in hands(edition, names):
            hand.render_hand(hand_view, words=words)
        for board in scoreboards(edition, names):
            scores.render_scores(board, words=words)
    lines = [
        replace(line, name=names[i % len(names)]) for i, line in enumerate(sample_standings(12))
    ]
    for sort in ("rating", "wins", "win_rate", "points", "matches"):
        leaderboard.render_leaderboard(lines, title, sort, words=words)
    leaderboard.render_leaderboard([], None, words=words)


def tables(edition: Edition, names: tuple[str, ...]) -> Iterator[PublicView]:
    for players in range(2, 11):
        base = sample_table(players, edition, "red" if players % 3 else None)
        seats = tuple(replace(s, name=names[s.seat % len(names)]) for s in base.seats)
        yield replace(base, seats=seats)
    base = sample_table(6, edition, "blue")
    seats = tuple(replace(s, name=names[s.seat]) for s in base.seats)
    for awaiting in (Phase.COLOR, Phase.RESPOND, Phase.DRAWN):
        yield replace(base, seats=seats, awaiting=awaiting, direction=1, draw_pile=0)
    yield replace(base, seats=seats, winner=2, current=None, target=None)
    yield replace(base, seats=(replace(seats[0], name="🎉"), *seats[1:]))  # the fallback name


def hands(edition: Edition, names: tuple[str, ...]) -> Iterator[HandView]:
    for count in (0, 1, 7, 12, 40):
        view = sample_hand(count, edition)
        yield replace(view, name=names[count % len(names)], drawn=view.cards[0] if count else None)
    yield replace(sample_hand(3, edition), name="🎉", color=None)


def scoreboards(edition: Edition, names: tuple[str, ...]) -> Iterator[ScoreView]:
    for players in (2, 4, 10):
        base = sample_scores(players, edition)
        yield replace(base, names=tuple(names[s % len(names)] for s in range(players)))
    base = sample_scores(3, edition)
    yield replace(
        base,
        names=names[:3],
        rounds=(),
        totals=(0, 0, 0),
        target=None,
        scoring="lowest",
        round_winners=(),
        winners=(),
        active=(True, False, True),
    )
    yield replace(base, names=names[:3], winners=(1,), scoring="lowest")
