"""Provably fair shuffles: the commitment shown at the deal is the SHA-256 of the seed and deck
the round's record reveals afterwards, and the documented one-line check prints it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import shlex
import subprocess
from pathlib import Path

from bot.engine import RuleSet
from bot.engine.cards import CODES
from bot.engine.playout import play_match
from bot.engine.record import RoundRecord, commitment
from bot.tables.commands import ANY_SEAT, Actor, Join, Start
from bot.tables.manager import TableManager
from bot.tables.scheduler import ManualScheduler
from bot.tables.snapshot import snapshot_of
from bot.tables.table import Status
from cogs.ui.table import table_view

ROOT = Path(__file__).resolve().parents[2]


def documented_check() -> list[str]:
    """The check command as docs/fairness.md prints it, split as a shell would."""
    text = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    [line] = [row for row in text.splitlines() if row.startswith("python3 -c ")]
    return shlex.split(line)


def test_the_commitment_is_the_sha256_of_the_seed_and_the_deck() -> None:
    record = RoundRecord.from_text(play_match(RuleSet(target=None), ("easy", "easy"), 2).records[0])
    text = f"{record.seed}:{','.join(CODES[c] for c in record.deck)}"
    assert record.commitment == hashlib.sha256(text.encode()).hexdigest()[:16]
    swapped = (record.deck[1], record.deck[0], *record.deck[2:])
    if swapped != record.deck:
        assert commitment(record.seed, swapped) != record.commitment
    assert commitment(record.seed + 1, record.deck) != record.commitment


def test_the_documented_command_prints_the_commitment_of_an_exported_round(
    tmp_path: Path,
) -> None:
    record = RoundRecord.from_text(play_match(RuleSet(target=None), ("easy", "easy"), 4).records[0])
    exported = tmp_path / "uno-match-12-round-3.json"
    exported.write_text(json.dumps(record.to_scenario(match=12, round=3)), encoding="utf-8")
    command = documented_check()
    assert command[-1] == "uno-match-12-round-3.json"
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == record.commitment


async def test_the_table_shows_the_commitment_at_the_deal_and_the_seed_after_the_round() -> None:
    manager = TableManager(None, scheduler=ManualScheduler(), rng=random.Random(3), brain=None)
    alice, bob = Actor(1, "Alice"), Actor(2, "Bob")
    await manager.create("t1", 1, 100, alice, RuleSet(target=None), threads=True)
    await manager.act("t1", bob, Join())
    await manager.act("t1", alice, Start())
    table = manager.tables["t1"]
    dealt = snapshot_of(table)
    assert dealt.commitment is not None and len(dealt.commitment) == 16
    assert dealt.revealed_seed is None
    shown = "\n".join(
        c.content for c in table_view(dealt, image=None).walk_children() if hasattr(c, "content")
    )
    assert f"🔒 Shuffle commitment: `{dealt.commitment}`" in shown
    rng = random.Random(1)
    while table.status is Status.PLAYING:
        assert table.match is not None
        game = table.match.game
        actor = alice if table.seats[game.current].user_id == 1 else bob
        action = rng.choice(game.legal_actions(game.current))
        await manager.act("t1", actor, dataclasses.replace(action, seat=ANY_SEAT))
    over = snapshot_of(table)
    assert table.match is not None
    record = RoundRecord.from_text(table.match.records[-1])
    assert over.commitment == dealt.commitment == record.commitment
    assert over.revealed_seed == record.seed
    text = "\n".join(
        c.content for c in table_view(over, image=None).walk_children() if hasattr(c, "content")
    )
    assert f"commitment `{record.commitment}`, seed `{record.seed}`" in text
