"""The emoji the bot writes are drawn by the page, so a machine without an emoji font shows
them too; Discord links stay inside the playground."""

from __future__ import annotations

import re

from bot.playground.emoji import draw_emoji, picture, plain_emoji
from bot.playground.markdown import Markdown
from cogs.ui.table import COLOR_EMOJI

EMOJI = re.compile("[\U0001f000-\U0001ffff\u2600-\u27bf]")


class Nobody:
    def user_name(self, user_id: int) -> str | None:
        return None

    def channel_name(self, channel_id: int) -> str | None:
        return "game"

    def role_name(self, role_id: int) -> str | None:
        return None


def test_every_color_mark_and_picture_the_bot_writes_is_drawn() -> None:
    for mark in [*COLOR_EMOJI.values(), "🌈", "🎴", "🤖", "🏆", "👑", "✅", "⚙️", "✏️", "⚡"]:
        drawn = draw_emoji(f"a {mark} b")
        assert drawn.startswith('a <svg class="drawn-emoji"') and drawn.endswith("</svg> b")
        assert EMOJI.sub("", drawn.split('aria-label="')[0]) == drawn.split('aria-label="')[0]
    assert picture("🟥") != picture("🟦")  # each color its own
    assert draw_emoji("no emoji ↻") == "no emoji ↻"  # the font has these
    assert plain_emoji("🟥 Red") == "Red"


def test_a_link_to_a_discord_message_opens_it_in_the_playground() -> None:
    html = Markdown(Nobody(), lambda: 0.0).inline(
        "A lobby is open: https://discord.com/channels/1/22/333 and [here](https://discord.com/channels/1/22)"
    )
    assert 'data-channel="22" data-message="333"' in html
    assert '<a class="mention" href="#" data-channel="22">here</a>' in html
    assert "discord.com" not in html
