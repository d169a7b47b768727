"""Recorded rounds from /uno history through the fake Discord: a round exported as a file that
the engine's scenario command replays, names only of members still in the server."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.engine.playout import play_match
from bot.engine.record import RoundRecord
from bot.engine.review import agreement, play_views, review
from bot.engine.rules import RuleSet
from bot.engine.scenario import run_scenario
from bot.storage.models import MatchPlayer, MatchRecord
from fake_discord import BotRunner, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from fake_discord.clock import ManualClock
from fake_discord.components import C_MEDIA_GALLERY
from tests.e2e.helpers import Harness, start_bot


@pytest.fixture
async def h(
    fake_discord: FakeDiscord, fake_guild: FakeGuild, bot_runner: BotRunner, tmp_path: Path
) -> AsyncIterator[Harness]:
    harness = await start_bot(
        fake_discord, bot_runner, tmp_path / "uno.db", fake_guild.default_channel
    )
    try:
        yield harness
    finally:
        await bot_runner.stop(harness.running)
        await harness.storage.close()


async def record_played(
    h: Harness, guild: FakeGuild, seats: list[FakeUser], seed: int
) -> list[str]:
    """A match played by computers standing in for ``seats``, recorded with its rounds."""
    match = play_match(RuleSet(target=200), ["normal"] * len(seats), seed)
    totals = match.totals
    best = max(totals)
    players = [
        MatchPlayer(
            user_id=user.id,
            name=user.username.title(),
            seat=seat,
            points=totals[seat],
            place=1 if totals[seat] == best else 2,
        )
        for seat, user in enumerate(seats)
    ]
    await h.storage.record_match(
        MatchRecord(
            match_uid=f"m{seed}",
            guild_id=guild.id,
            channel_id=guild.default_channel.id,
            edition="classic",
            scoring="standard",
            target=200,
            started_at=1.7e9,
            finished_at=1.7e9 + 600,
            rounds=match.rounds,
            events=[],
            players=players,
            winners=[p.user_id for p in players if p.place == 1],
            round_records=list(match.records),
        )
    )
    return list(match.records)


async def test_a_round_is_exported_as_a_scenario_file_that_replays(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    texts = await record_played(h, fake_guild, [ann, cal], 3)
    del fake_guild.members[cal.id]  # Cal has left the server since
    msg = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert msg is not None
    pick = await fake_discord.select(ann, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None and detail.is_ephemeral
    rounds = detail.select(prefix="unorec:")
    assert rounds.values == [str(n) for n in range(1, len(texts) + 1)]
    chosen = await fake_discord.select(ann, detail, rounds.custom_id, [str(len(texts))])
    sent = await chosen.followup(0)
    assert sent.is_ephemeral and sent.visible_to(ann)
    assert "python -m bot.engine scenario FILE" in sent.text
    data = json.loads(sent.attachment(f"uno-match-1-round-{len(texts)}.json").data)
    assert data["record"]["names"] == ["Ann", "Former player"]
    assert data["record"]["match"] == 1 and data["record"]["round"] == len(texts)
    record = RoundRecord.from_text(texts[-1])
    assert RoundRecord.from_scenario(data) == record
    replayed = run_scenario(data)
    assert replayed["error"] is None and replayed["state"]["awaiting"] == "round_over"
    assert data["record"]["points"] == list(record.points or ())
    # The one call Discord refused: asking after the member who left.
    assert [str(e) for e in fake_discord.errors] == [
        f"GET /api/v10/guilds/{fake_guild.id}/members/{cal.id} -> 404 10007 Unknown Member"
    ]
    bot_runner.assert_no_errors()


async def test_a_round_that_was_not_recorded_gets_a_polite_answer(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    await h.storage.record_match(
        MatchRecord(
            match_uid="old",
            guild_id=fake_guild.id,
            channel_id=channel.id,
            edition="classic",
            scoring="standard",
            target=None,
            started_at=1.7e9,
            finished_at=1.7e9 + 60,
            rounds=[[10, 0]],
            events=[],
            players=[
                MatchPlayer(user_id=ann.id, name="Ann", seat=0, points=10, place=1),
                MatchPlayer(user_id=cal.id, name="Cal", seat=1, points=0, place=2),
            ],
            winners=[ann.id],
        )
    )
    msg = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert msg is not None
    pick = await fake_discord.select(ann, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None
    chosen = await fake_discord.select(
        ann, detail, detail.select(prefix="unorec:").custom_id, ["1"]
    )
    answer = (await chosen.response()).message
    assert answer is not None and "was not recorded" in answer.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def open_stepper(
    fake_discord: FakeDiscord, user: FakeUser, channel: Any, round_number: int
) -> FakeMessage:
    """/uno history → the first match → replay ``round_number``: the stepper message."""
    msg = (await (await fake_discord.slash(user, channel, "uno history")).response()).message
    assert msg is not None
    pick = await fake_discord.select(user, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None
    rounds = detail.select(prefix="unorpl:")
    chosen = await fake_discord.select(user, detail, rounds.custom_id, [str(round_number)])
    return await chosen.followup(0)


async def step(fake_discord: FakeDiscord, user: FakeUser, stepper: FakeMessage, emoji: str) -> str:
    """Press one of the stepper's buttons; the message's text once redrawn."""
    [button] = [b for b in stepper.buttons if (b.emoji or {}).get("name") == emoji]
    edits = stepper.edit_count
    await (await fake_discord.click(user, stepper, button)).response()
    await fake_discord.wait_for(lambda: stepper.edit_count > edits)
    return stepper.text


async def test_the_replay_steps_through_a_round_with_every_hand_shown(
    fake_discord: FakeDiscord,
    fake_guild: FakeGuild,
    bot_runner: BotRunner,
    tmp_path: Path,
    fake_clock: ManualClock,
) -> None:
    channel = fake_guild.default_channel
    db = tmp_path / "uno.db"
    first = await start_bot(fake_discord, bot_runner, db, channel)
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    texts = await record_played(first, fake_guild, [ann, cal], 3)
    record = RoundRecord.from_text(texts[0])
    total = len(record.actions)
    reviewed = review(record)

    stepper = await open_stepper(fake_discord, ann, channel, 1)
    assert stepper.is_ephemeral and stepper.visible_to(ann) and not stepper.visible_to(cal)
    assert f"The deal · {total} moves" in stepper.text
    assert stepper.attachment("replay.png").data.startswith(b"\x89PNG")
    [gallery_alt] = [
        item.get("description", "")
        for comp in stepper.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    # Every hand is in the description: the round is over, nothing is secret any more.
    for seat, hand in enumerate(reviewed.game_at(0).hands):
        assert f"{['Ann', 'Cal'][seat]}: " in gallery_alt and len(hand) == 7

    assert f"Move 1 of {total}" in await step(fake_discord, ann, stepper, "▶")
    assert f"Move 2 of {total}" in await step(fake_discord, ann, stepper, "▶")
    last = await step(fake_discord, ann, stepper, "⏭")
    assert f"Move {total} of {total}" in last and "went out" in last

    moments = stepper.select(prefix="unorpk:")
    wanted = reviewed.moments()[0].number
    edits = stepper.edit_count
    await (await fake_discord.select(ann, stepper, moments.custom_id, [str(wanted)])).response()
    await fake_discord.wait_for(lambda: stepper.edit_count > edits)
    assert f"Move {wanted} of {total}" in stepper.text

    # Long after the interaction that opened it, and after a restart, it still steps.
    fake_clock.advance(20 * 60)
    assert f"Move {wanted - 1} of {total}" in await step(fake_discord, ann, stepper, "◀")
    await bot_runner.kill(first.running)
    second = await start_bot(fake_discord, bot_runner, db, channel)
    assert f"The deal · {total} moves" in await step(fake_discord, ann, stepper, "⏮")
    assert second.bot.is_ready()
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
    await bot_runner.stop(second.running)


async def test_a_player_sees_their_agreement_with_the_hard_computer(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    eve = await fake_discord.create_member(fake_guild, "eve")
    texts = await record_played(h, fake_guild, [ann, cal], 4)

    async def details(user: FakeUser) -> FakeMessage:
        msg = (await (await fake_discord.slash(user, channel, "uno history")).response()).message
        assert msg is not None
        pick = await fake_discord.select(user, msg, msg.select(prefix="unohist:").custom_id, ["1"])
        detail = (await pick.response()).message
        assert detail is not None
        return detail

    detail = await details(ann)
    button = detail.button(custom_id=f"unoagree:{fake_guild.id}:1")
    answer = await (await fake_discord.click(ann, detail, button)).followup(0)
    assert answer.is_ephemeral and answer.visible_to(ann)
    expected = [agreement(RoundRecord.from_text(t), [0])[0] for t in texts]
    made = sum(a.decisions for a in expected)
    agreed = sum(a.agreed for a in expected)
    assert f"Whole match**: {agreed} of {made} decisions" in answer.text
    assert answer.text.count("Round ") == len(texts)
    other = await details(eve)
    refused = await (await fake_discord.click(eve, other, button)).response()
    assert refused.message is not None and "did not play in this match" in refused.message.text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_rounds_recap_is_an_animated_picture_sent_privately(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    texts = await record_played(h, fake_guild, [ann, cal], 5)
    msg = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert msg is not None
    pick = await fake_discord.select(ann, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None
    recap = detail.select(prefix="unocap:")
    sent = await (await fake_discord.select(ann, detail, recap.custom_id, ["1"])).followup(0)
    assert sent.is_ephemeral and sent.visible_to(ann)
    data = sent.attachment("recap.webp").data
    picture = Image.open(io.BytesIO(data))
    views = play_views(RoundRecord.from_text(texts[0]), ["Ann", "Cal"])
    assert picture.format == "WEBP" and picture.n_frames == len(views) + 1
    [alt] = [
        item.get("description", "")
        for comp in sent.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    assert alt.startswith("Animated recap of round 1:")
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_profile_card_shows_a_players_record_and_a_forgotten_player_has_none(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    await record_played(h, fake_guild, [ann, cal], 6)
    itx = await fake_discord.slash(cal, channel, "uno profile", {"member": ann})
    card = await itx.followup(0)
    assert not card.is_ephemeral
    assert "Ann" in card.text and "Rating" in card.text
    png = card.attachment("profile.png").data
    assert Image.open(io.BytesIO(png)).size == (800, 440)
    [alt] = [
        item.get("description", "")
        for comp in card.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    assert alt.startswith("Profile of Ann.") and "Wins per edition" in alt
    assert card.allowed_mentions is not None and not card.allowed_mentions.get("parse")
    await h.storage.forget_user(fake_guild.id, ann.id)
    itx = await fake_discord.slash(cal, channel, "uno profile", {"member": ann})
    gone = (await itx.response()).message
    assert gone is not None and "has not finished a league match" in gone.text
    # Her seat's records hold seat numbers only; the export names her "Former player".
    text = await h.storage.round_record(fake_guild.id, 1, 1)
    assert text is not None and str(ann.id) not in text and "Ann" not in text
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_forgotten_player_is_a_former_player_in_every_sentence(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    ann = await fake_discord.create_member(fake_guild, "ann")
    cal = await fake_discord.create_member(fake_guild, "cal")
    texts = await record_played(h, fake_guild, [ann, cal], 7)  # Cal goes out in round 1
    record = RoundRecord.from_text(texts[0])
    assert play_views(record, ["Ann", "Cal"])[-1].winner == 1
    ask = (await (await fake_discord.slash(cal, channel, "uno forget-me")).response()).message
    assert ask is not None and "only as “a former player”" in ask.text
    await (await fake_discord.click(cal, ask, ask.button("Yes, erase my records"))).response()

    msg = (await (await fake_discord.slash(ann, channel, "uno history")).response()).message
    assert msg is not None and "Cal" not in msg.text
    pick = await fake_discord.select(ann, msg, msg.select(prefix="unohist:").custom_id, ["1"])
    detail = (await pick.response()).message
    assert detail is not None and "Cal" not in detail.text
    assert "**Former player** · " in detail.text  # the seat's label in the list of players
    assert "1. A former player went out" in detail.text  # a sentence

    stepper = await open_stepper(fake_discord, ann, channel, 1)
    last = await step(fake_discord, ann, stepper, "⏭")
    assert "- **A former player** went out" in last and "Former player" not in last.replace(
        "**A former player**", ""
    )
    [alt] = [
        item.get("description", "")
        for comp in stepper.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    assert "Former player: " in alt  # a hand's label

    recap = detail.select(prefix="unocap:")
    sent = await (await fake_discord.select(ann, detail, recap.custom_id, ["1"])).followup(0)
    [alt] = [
        item.get("description", "")
        for comp in sent.walk()
        if comp["type"] == C_MEDIA_GALLERY
        for item in comp.get("items", [])
    ]
    assert alt.endswith("then a former player went out.")
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()


async def test_a_team_rounds_replay_gives_the_team_scores_as_they_stood(
    fake_discord: FakeDiscord, h: Harness, fake_guild: FakeGuild, bot_runner: BotRunner
) -> None:
    channel = fake_guild.default_channel
    users = [await fake_discord.create_member(fake_guild, name) for name in "abcd"]
    match = play_match(RuleSet(target=150, teams=2), ["normal"] * 4, 0)
    assert match.teams == 2 and len(match.records) >= 2
    totals = match.totals
    await h.storage.record_match(
        MatchRecord(
            match_uid="teams",
            guild_id=fake_guild.id,
            channel_id=channel.id,
            edition="classic",
            scoring="standard",
            target=150,
            started_at=1.7e9,
            finished_at=1.7e9 + 600,
            rounds=match.rounds,
            events=[],
            players=[
                MatchPlayer(user_id=u.id, name=u.username, seat=s, points=totals[s], place=1)
                for s, u in enumerate(users)
            ],
            winners=[users[s].id for s in match.winners],
            round_records=list(match.records),
            teams=2,
        )
    )
    first = [sum(match.rounds[0][s] for s in range(t, 4, 2)) for t in range(2)]
    second = [first[t] + sum(match.rounds[1][s] for s in range(t, 4, 2)) for t in range(2)]
    stepper = await open_stepper(fake_discord, users[0], channel, 2)

    def alt() -> str:
        [text] = [
            item.get("description", "")
            for comp in stepper.walk()
            if comp["type"] == C_MEDIA_GALLERY
            for item in comp.get("items", [])
        ]
        return text

    assert alt().endswith(f"🟥 Team 1: {first[0]} · 🟦 Team 2: {first[1]}.")  # as it began
    await step(fake_discord, users[0], stepper, "⏭")
    assert alt().endswith(f"🟥 Team 1: {second[0]} · 🟦 Team 2: {second[1]}.")  # once scored
    fake_discord.assert_no_errors()
    bot_runner.assert_no_errors()
