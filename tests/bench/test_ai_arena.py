"""The arena's adapters: the outside agents play legal moves of this engine, and its duplicate
matches count every game (the figures themselves belong to the benchmark)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import pytest

from bot.engine.cards import CARD_INDEX, Edition, edition_deck, shuffle
from bot.engine.game import Game, Phase

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import ai_arena
import arena_agents


def _cards(*codes: str) -> list[int]:
    return [CARD_INDEX[c] for c in codes]


def test_rlcard_offers_a_draw4_only_when_nothing_else_fits() -> None:
    top = CARD_INDEX["red-9"]
    with_red = arena_agents.rl_legal(_cards("wild-draw4", "red-1", "blue-2"), top, 0)
    assert with_red == ["r-1"]
    stuck = arena_agents.rl_legal(_cards("wild-draw4", "blue-2"), top, 0)
    assert stuck == ["r-wild_draw_4", "g-wild_draw_4", "b-wild_draw_4", "y-wild_draw_4"]
    assert arena_agents.rl_legal(_cards("blue-2"), top, 0) == ["draw"]
    assert "b-9" in arena_agents.rl_legal(_cards("blue-9"), top, 0)


def _play_out(agent: arena_agents.Agent, seed: int) -> None:
    deck = edition_deck(Edition.CLASSIC)
    shuffle(deck, random.Random(seed))
    game = Game(Edition.CLASSIC, 2, 0, deck, random.Random(seed))
    normal = arena_agents.make("normal")
    rng = random.Random(seed)
    steps = 0
    while game.phase is not Phase.OVER:
        player = agent if game.current == 0 else normal
        action = player.act(game, game.current, rng)
        assert action in game.legal_actions(), (player.name, action)
        game.apply(action)
        steps += 1
        assert steps < 5000


@pytest.mark.parametrize("name", ["rlcard", "uno-game", "bluffer"])
def test_every_agent_plays_legal_moves_to_the_end(name: str) -> None:
    if name in arena_agents.OUTSIDE:
        pytest.importorskip("rlcard" if name == "rlcard" else "uno")
    agent = arena_agents.make(name)
    for seed in range(6):
        _play_out(agent, seed)


def test_a_duplicate_matchup_plays_every_deal_twice() -> None:
    args = argparse.Namespace(jobs=1, match=2, hard_budget=10.0, hard_rollouts=12, seed=3, first=0)
    result = ai_arena.matchup("normal", "bluffer", 4, args)
    assert result["games"] == 8 and result["deals"] == 4
    assert 0.0 <= result["ci95"][0] <= result["win_rate"] <= result["ci95"][1] <= 1.0
    assert result["decisions"] > 0
    # The same seed plays the same games.
    assert ai_arena.matchup("normal", "bluffer", 4, args)["wins"] == result["wins"]
