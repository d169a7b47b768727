"""The Wild Draw Four challenge over whole seeded matches: cheap against a player who never
bluffs, still sharp against one who bluffs whenever it can."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import ai_arena
import arena_agents

from tests.engine.helpers import position

ARGS = argparse.Namespace(jobs=1, match=4, hard_budget=10.0, hard_rollouts=12, seed=1)
DEALS = 60


def test_against_a_player_who_never_bluffs_at_most_one_challenge_in_ten_is_lost() -> None:
    counts = ai_arena.matchup("normal", "honest", DEALS, ARGS)["challenges"]
    assert counts["bluffs_on_us"] == 0
    assert counts["wd4_on_us"] >= 60
    assert counts["lost_challenges"] * 10 <= counts["wd4_on_us"]


def test_against_a_player_who_always_bluffs_most_bluffs_are_caught() -> None:
    counts = ai_arena.matchup("normal", "bluffer", DEALS, ARGS)["challenges"]
    assert counts["bluffs_on_us"] >= 40
    assert counts["won_challenges"] * 4 >= counts["bluffs_on_us"] * 3


def test_the_honest_agent_plays_another_card_instead_of_a_bluff() -> None:
    # The next seat is down to one card: normal bluffs the Wild Draw Four on it.
    game = position([["wild-draw4", "red-2", "blue-5"], ["green-1"]], "red-9")
    normal = arena_agents.make("normal").act(game, 0, random.Random(0))
    assert normal.card == game.hands[0][0]
    honest = arena_agents.make("honest").act(game, 0, random.Random(0))
    assert honest.do == "play" and honest.card == game.hands[0][1]
