"""Persistence round trips, clones, determinism, views, and the engine's import boundary."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from bot.engine import Edition, Game, Match, Phase, RuleSet, Scoring, hand_view, public_view
from bot.engine.cards import CODES, edition_deck, shuffle
from bot.engine.events import write_all
from bot.engine.simulate import random_policy
from tests.engine.helpers import do, give, make_game, play

ROOT = Path(__file__).resolve().parents[2]


def new_game(edition: Edition, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    deck = edition_deck(edition)
    shuffle(deck, rng)
    return Game(edition, players, rng.randrange(players), deck, random.Random(seed + 1))


def play_on(game: Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return
        random_policy(game, rng)


def through_json(data: dict[str, object]) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(json.dumps(data))
    return loaded


@pytest.mark.parametrize("edition", list(Edition))
@pytest.mark.parametrize("steps", [0, 7, 40])
def test_game_round_trip_continues_identically(edition: Edition, steps: int) -> None:
    game = new_game(edition, 4, 11)
    play_on(game, steps, 1)
    copy = Game.from_dict(through_json(game.to_dict()))
    assert copy.to_dict() == through_json(game.to_dict())
    play_on(game, 10_000, 2)
    play_on(copy, 10_000, 2)
    assert game.over and copy.to_dict() == through_json(game.to_dict())


def test_game_round_trip_with_a_pending_challenge_and_catchable_seat() -> None:
    p1 = ["wild-draw4", "red-9", "blue-2", "blue-3", "green-4", "green-6", "yellow-4"]
    game = make_game("mario", [[], p1, []], ["red-5"])
    give(game, 1, ["wild-draw4", "red-9"])
    play(game, 1, "wild-draw4", "green")
    assert game.awaiting == "respond" and game.catchable() == 1
    copy = Game.from_dict(through_json(game.to_dict()))
    assert copy.catchable() == 1 and copy.legal_actions() == game.legal_actions()
    assert do(copy, 2, "challenge") == do(game, 2, "challenge")
    assert copy.to_dict() == game.to_dict()


@pytest.mark.parametrize("scoring", list(Scoring))
def test_match_round_trip_continues_identically(scoring: Scoring) -> None:
    rules = RuleSet(Edition.MARIO, scoring=scoring, target=300, house_rule="Sing")
    match = Match(rules, 3, random.Random(12))
    rng = random.Random(3)
    for _ in range(2):
        play_on(match.game, 10_000, rng.randrange(1000))
        match.finish_round()
        if match.over:
            break
        match.next_round()
    play_on(match.game, 15, 4)
    copy = Match.from_dict(through_json(match.to_dict()))
    assert through_json(copy.to_dict()) == through_json(match.to_dict())
    for m in (match, copy):
        rng = random.Random(5)
        while not m.over:
            play_on(m.game, 10_000, rng.randrange(1000))
            m.finish_round()
            if not m.over:
                m.next_round()
    assert through_json(copy.to_dict()) == through_json(match.to_dict())


def test_clone_is_independent() -> None:
    game = new_game(Edition.SONIC, 5, 13)
    play_on(game, 20, 1)
    before = game.to_dict()
    clone = game.clone(random.Random(1))
    play_on(clone, 10_000, 2)
    assert clone.over
    assert game.to_dict() == before


def test_clone_plays_like_the_original() -> None:
    game = new_game(Edition.CLASSIC, 3, 14)
    play_on(game, 5, 1)
    clone = game.clone()
    for _ in range(20):
        if game.over:
            break
        action = game.legal_actions()[0]
        assert clone.legal_actions()[0] == action
        game.apply(action)
        clone.apply(action)
        assert clone.hands == game.hands and clone.current == game.current


@pytest.mark.parametrize("edition", list(Edition))
def test_same_seed_same_game(edition: Edition) -> None:
    def run() -> dict[str, object]:
        match = Match(RuleSet(edition, target=None), 5, random.Random(21))
        play_on(match.game, 10_000, 22)
        match.finish_round()
        return match.to_dict()

    assert run() == run()


def test_public_view_never_holds_a_hand_card() -> None:
    p = [
        ["green-1", "green-2", "green-3", "yellow-1", "yellow-2", "yellow-3", "blue-1"],
        ["blue-2", "blue-3", "blue-4", "green-4", "green-6", "yellow-4", "wild-draw4"],
        ["green-7", "green-8", "yellow-7", "yellow-8", "blue-7", "wild-super-star", "blue-9"],
    ]
    game = make_game("mario", p, ["red-5"])
    text = repr(public_view(game, ["Ann", "Bob", "Cy"]))
    for code in {c for h in p for c in h}:
        assert code not in text
    view = public_view(game)
    assert [s.cards for s in view.seats] == [7, 7, 7] and view.top == "red-5"
    # Still true while a penalty waits and after a challenge reveal.
    play(game, 1, "wild-draw4", "red")
    view = public_view(game)
    assert (
        view.pending == "wild-draw4" and view.pending_from == 1 and view.awaiting is Phase.RESPOND
    )
    do(game, 2, "challenge")
    text = repr(public_view(game))
    for code in {c for h in game.hands for c in map(CODES.__getitem__, h)} - {"red-5"}:
        if code not in {CODES[c] for c in game.discard}:
            assert code not in text


def test_hand_view_shows_playable_flags() -> None:
    p1 = ["red-2", "blue-5", "green-7", "wild", "yellow-skip", "wild-draw4", "blue-9"]
    game = make_game("classic", [[], p1, []], ["red-5"])
    view = hand_view(game, 1, "Bob")
    flags = dict(zip(view.cards, view.playable, strict=True))
    assert flags == {
        "red-2": True,
        "blue-5": True,
        "green-7": False,
        "wild": True,
        "yellow-skip": False,
        "wild-draw4": True,
        "blue-9": False,
    }
    # Wild cards first, so a big hand never hides them on its last page.
    assert view.cards[:2] == ("wild", "wild-draw4")
    assert view.cards[2:] == ("red-2", "yellow-skip", "green-7", "blue-5", "blue-9")
    assert view.awaiting is Phase.TURN and view.name == "Bob"
    other = hand_view(game, 2)
    assert other.awaiting is None and not any(other.playable)


def test_hand_view_while_responding_offers_the_bounce() -> None:
    p1 = ["red-draw2", "blue-5", "green-7", "wild", "yellow-skip", "wild-draw4", "blue-9"]
    p2 = ["wild-super-star", "blue-6", "green-8", "yellow-1", "yellow-2", "green-1", "blue-1"]
    game = make_game("mario", [[], p1, p2], ["red-5"])
    play(game, 1, "red-draw2")
    view = hand_view(game, 2)
    assert view.awaiting is Phase.RESPOND and view.pending == "red-draw2"
    assert view.can_bounce and not view.can_challenge
    assert [c for c, ok in zip(view.cards, view.playable, strict=True) if ok] == ["wild-super-star"]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", ["bot/engine", "bot/render"])
def test_engine_and_renderer_never_import_discord_or_aiosqlite(package: str) -> None:
    folder = ROOT / package
    if not folder.is_dir():
        pytest.skip(f"{package} does not exist yet")
    for path in sorted(folder.rglob("*.py")):
        banned = _imports(path) & {"discord", "aiosqlite"}
        assert not banned, f"{path.relative_to(ROOT)} imports {sorted(banned)}"


def test_saved_states_do_not_change_with_the_game() -> None:
    match = Match(RuleSet(Edition.CLASSIC, target=None), 3, random.Random(30))
    saved = json.dumps(match.to_dict())
    game_dict, match_dict = match.game.to_dict(), match.to_dict()
    game_saved = json.dumps(game_dict)
    play_on(match.game, 10_000, 1)
    match.finish_round()
    assert json.dumps(game_dict) == game_saved and json.dumps(match_dict) == saved


def test_a_generator_is_saved_packed_and_older_saves_still_load() -> None:
    import json
    import random

    from bot.engine.state import rng_from_json, rng_to_json

    rng = random.Random(42)
    rng.random()
    saved = json.loads(json.dumps(rng_to_json(rng)))
    assert isinstance(saved[1], str) and len(json.dumps(saved)) < 3500
    assert rng_from_json(saved).getstate() == rng.getstate()
    version, words, gauss = rng.getstate()
    older = json.loads(json.dumps([version, list(words), gauss]))  # numbers, as saved before
    again = rng_from_json(older)
    assert again.getstate() == rng.getstate()
    assert [again.random() for _ in range(3)] == [rng.random() for _ in range(3)]


def test_a_round_saved_before_the_state_split_restores_and_plays_on_alike() -> None:
    """A mid-round save (mario, stacking and 7-0, a seat gone) written by the engine before
    ``RoundState``: it restores to the very same save, then plays on exactly as that engine
    played it (its events and points recorded with the save)."""
    recorded = json.loads(
        (Path(__file__).parent / "data" / "round_saved_before_state.json").read_text()
    )
    game = Game.from_dict(recorded["save"])
    # The same save, and the fields added since with the values an old save stands for.
    assert through_json(game.to_dict()) == {**recorded["save"], "teams": 0}
    assert not game.active[3] and game.players == 3 and game.house.seven_o
    rng = random.Random(9)
    while not game.over:
        random_policy(game, rng)
    assert write_all(game.events[len(recorded["save"]["events"]) :]) == recorded["then"]["events"]
    assert game.points == recorded["then"]["points"]
