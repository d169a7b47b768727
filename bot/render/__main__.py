"""`python -m bot.render --demo DIR`: write sample pictures of every card, tables, hands, scores
and a leaderboard."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.engine.cards import Edition

from . import art
from .common import encode_png
from .hand import render_hand
from .leaderboard import render_leaderboard
from .samples import (
    sample_hand,
    sample_scores,
    sample_standings,
    sample_table,
    sample_team_table,
)
from .scores import render_scores
from .table import render_table


def demo(out: Path) -> list[Path]:
    """Write the sample pictures into ``out`` and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for edition in Edition:
        e = edition.value
        save(f"cards-{e}.png", encode_png(art.sheet(edition, 110)))
        cards_dir = out / "cards" / e
        cards_dir.mkdir(parents=True, exist_ok=True)
        for code in (*art.edition_cards(edition), art.BACK):
            path = cards_dir / f"{code}.png"
            art.card_image(code, edition, 240).save(path)
            written.append(path)
        for players, color in ((2, "red"), (4, "yellow"), (6, None), (10, "blue")):
            save(f"table-{e}-{players}.png", render_table(sample_table(players, edition, color)))
        for cards in (7, 40):
            save(f"hand-{e}-{cards}.png", render_hand(sample_hand(cards, edition)))
        save(f"scores-{e}.png", render_scores(sample_scores(4, edition)))
    # Team play: each seat's team color and number, the team scores.
    save("table-teams-4.png", render_table(sample_team_table(4, 2)))
    save("table-teams-10.png", render_table(sample_team_table(10, 5)))
    save("scores-teams-6.png", render_scores(sample_scores(6, teams=3)))
    save("leaderboard.png", render_leaderboard(sample_standings(10), None, "wins"))
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bot.render", description=__doc__)
    parser.add_argument(
        "--demo",
        metavar="DIR",
        type=Path,
        required=True,
        help="directory to write the sample pictures to",
    )
    args = parser.parse_args(argv)
    written = demo(args.demo)
    print(f"wrote {len(written)} pictures to {args.demo}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
