"""Guild settings: defaults, round trips and the server's house rules."""

from __future__ import annotations

import pytest

from bot.storage import GuildSettings, Storage


async def test_settings_defaults_and_round_trip(storage: Storage) -> None:
    assert await storage.get_settings(5) == GuildSettings(5)
    custom = GuildSettings(
        5,
        edition="mario",
        scoring="lowest",
        target=None,
        turn_seconds=45,
        timeout_action="remove",
        timeouts_before_removal=2,
        lobby_minutes=5,
        computers_allowed=False,
        computer_level="hard",
        computers_rated=True,
        rate_house_rules=True,
        house_rules={"stack": "all", "jump_in": True, "hand_size": 9},
        language="pl",
    )
    await storage.save_settings(custom)
    assert await storage.get_settings(5) == custom
    assert await storage.get_settings(6) == GuildSettings(6)
    await storage.save_settings(GuildSettings(5))
    assert await storage.get_settings(5) == GuildSettings(5)


def test_new_settings_default_to_the_official_rules() -> None:
    settings = GuildSettings(1)
    assert settings.house_rules == {} and settings.rate_house_rules is False


@pytest.mark.parametrize("rules", [{"stack": 1.5}, {"": True}, {"stack": ["all"]}, {"stack": None}])
async def test_malformed_house_rules_are_refused_before_storage(
    storage: Storage, rules: dict[str, object]
) -> None:
    with pytest.raises(ValueError, match=r"house.rule"):
        await storage.save_settings(GuildSettings(5, house_rules=rules))
    assert await storage.get_settings(5) == GuildSettings(5)
