"""Command names in replies become clickable mentions with the synced ids, and stay plain text
while the ids are unknown."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.sync import CommandIds
from cogs.replies import link_commands


def command(name: str, command_id: int, options: list[dict[str, Any]]) -> app_commands.AppCommand:
    data = {
        "id": str(command_id),
        "application_id": "1",
        "name": name,
        "description": name,
        "type": 1,
        "options": options,
    }
    return app_commands.AppCommand(data=data, state=None)  # type: ignore[arg-type]


def sub(name: str, options: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    kind = 2 if options else 1
    return {"name": name, "description": name, "type": kind, "options": options or []}


class Client:
    def __init__(self) -> None:
        self.command_ids = CommandIds()
        self.command_ids.remember(
            None,
            [
                command("uno", 11, [sub("new"), sub("leave"), sub("leaderboard")]),
                command("uno-admin", 22, [sub("season", [sub("new")]), sub("export")]),
            ],
        )
        self.command_ids.remember(555, [command("uno", 33, [sub("new")])])


def test_command_names_become_mentions() -> None:
    client = Client()
    cases = {
        "Start one with `/uno new`.": "Start one with </uno new:11>.",
        "Use /uno leave to leave your own game.": "Use </uno leave:11> to leave your own game.",
        "`/uno-admin season new` then /uno-admin export.": (
            "</uno-admin season new:22> then </uno-admin export:22>."
        ),
        # Not commands, or not only a command: left as written.
        "`/uno leaderboard season:1`": "`/uno leaderboard season:1`",
        "/uno": "/uno",
        "/uno dance": "/uno dance",
        "`/uno-admin season`": "`/uno-admin season`",  # a group: Discord cannot mention it
        "a/uno new": "a/uno new",
        "</uno new:11>": "</uno new:11>",
    }
    assert {text: link_commands(client, text, None) for text in cases} == cases


def test_a_guild_uses_its_own_ids_then_the_global_ones() -> None:
    client = Client()
    assert link_commands(client, "`/uno new`", 555) == "</uno new:33>"
    assert link_commands(client, "/uno leave", 555) == "</uno leave:11>"
    assert link_commands(client, "/uno leave", 777) == "</uno leave:11>"


def test_without_synced_ids_the_text_stays() -> None:
    assert link_commands(object(), "`/uno new`", None) == "`/uno new`"

    class Fresh:
        command_ids = CommandIds()

    assert link_commands(Fresh(), "Try /uno new", None) == "Try /uno new"
