"""Round records stored with their match on both backends, read back by match and round."""

from __future__ import annotations

import dataclasses

from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.rules import RuleSet
from bot.storage import Storage

from .helpers import make_match


async def test_each_round_record_is_stored_with_its_match(storage: Storage) -> None:
    played = play_match(RuleSet(target=200), ("easy", "normal"), 3)
    texts = list(played.records)
    totals = [sum(r[s] for r in played.rounds) for s in range(2)]
    record = dataclasses.replace(
        make_match("m1", [(1, totals[0]), (2, totals[1])], rounds=played.rounds),
        round_records=[*texts[:-1], ""],  # the last round, say, was not recorded
    )
    assert await storage.record_match(record)
    for number, text in enumerate(texts[:-1], start=1):
        stored = await storage.round_record(1, 1, number)
        assert stored == text
        assert RoundRecord.from_text(stored).replayed_points() == played.rounds[number - 1]
    assert await storage.round_record(1, 1, len(texts)) is None
    assert await storage.round_record(1, 2, 1) is None  # no such match
    assert await storage.round_record(2, 1, 1) is None  # another server's numbers


async def test_a_replayed_recording_adds_no_second_copy(storage: Storage) -> None:
    played = play_match(RuleSet(target=None), ("easy", "easy"), 5)
    record = dataclasses.replace(
        make_match("m1", [(1, 1), (2, 0)], rounds=played.rounds),
        round_records=list(played.records),
    )
    assert await storage.record_match(record)
    assert not await storage.record_match(record)
    assert await storage.round_record(1, 1, 1) == played.records[0]


async def test_a_players_history_lists_their_results_and_newest_rounds(storage: Storage) -> None:
    played = play_match(RuleSet(target=200), ("easy", "normal"), 3)
    totals = [sum(r[s] for r in played.rounds) for s in range(2)]
    for uid in ("m1", "m2"):
        record = dataclasses.replace(
            make_match(uid, [(1, totals[0]), (2, totals[1])], rounds=played.rounds),
            round_records=list(played.records),
        )
        assert await storage.record_match(record)
    history = await storage.player_history(1, 2, rounds=3)
    assert history is not None and history.name == "player2"
    assert [edition for edition, _, _ in history.results] == ["classic", "classic"]
    won = totals[1] > totals[0]
    assert [w for _, w, _ in history.results] == [won, won]
    newest = list(reversed(played.records))[:3]
    assert history.rounds == [(1, text) for text in newest]
    assert await storage.player_history(1, 99) is None
    await storage.forget_user(1, 2)
    assert await storage.player_history(1, 2) is None
