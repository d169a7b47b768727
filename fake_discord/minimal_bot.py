"""A minimal discord.py bot using what the UNO bot uses: the fake's own test client.

It is also the latency baseline for benchmarks: clicking the counter button answers with an
immediate `edit_message` (callback type 7) and nothing else.

Commands (one `/demo` group):
- `/demo panel`            Components V2 LayoutView: Container + TextDisplay + counter button
                            (a DynamicItem, survives restarts) + string select.
- `/demo secret`           ephemeral reply.
- `/demo image`            deferred reply, then followups: a V2 view with a PNG in a
                            MediaGallery (attachment://card.png), then an ephemeral text.
- `/demo card`             immediate V2 reply with a PNG (multipart callback).
- `/demo form`             opens a modal (Label-wrapped and legacy text inputs).
- `/demo announce text`    channel message, edit it, thread from it, message in the thread.
- `/demo pick fruit`       autocomplete, reply pings the user.
- `/demo slow`             answers after `bot.slow_delay` seconds (ack deadline tests).
- `/demo whoami`           ephemeral reply naming the interaction's locale and guild locale.
- `/demo hand`             one live private hand per user: the first call sends an ephemeral
                            followup, later calls edit that same message through its
                            interaction's webhook (a new one once its token expired).
- `/demo fold`             deletes the user's private hand through the webhook.
- `/demo admin greet member style`   subcommand group with user + choice options.
- `/settings`              top-level command restricted to Manage Guild.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands, ui
from discord.ext import commands
from PIL import Image


def make_png(width: int = 64, height: int = 32, color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, format="PNG")
    return buf.getvalue()


class CounterButton(ui.DynamicItem[ui.Button[Any]], template=r"counter:(?P<count>\d+)"):
    """Stateless button: the count lives in the custom_id, so any bot process can handle it."""

    def __init__(self, count: int) -> None:
        super().__init__(
            ui.Button(
                label=f"Count: {count}",
                style=discord.ButtonStyle.primary,
                custom_id=f"counter:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # Benchmark baseline: one immediate type-7 update, no other work.
        await interaction.response.edit_message(view=PanelView(self.count + 1))


class ColorSelect(ui.Select[Any]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="demo:color",
            placeholder="Pick a color",
            options=[
                discord.SelectOption(label="Red", value="red"),
                discord.SelectOption(label="Green", value="green"),
                discord.SelectOption(label="Blue", value="blue"),
            ],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"You picked {self.values[0]}", ephemeral=True)


class PanelView(ui.LayoutView):
    def __init__(self, count: int = 0) -> None:
        super().__init__(timeout=None)
        self.add_item(
            ui.Container(
                ui.TextDisplay(f"# Panel\nCount is **{count}**"),
                ui.Separator(),
                ui.ActionRow(CounterButton(count)),
                ui.ActionRow(ColorSelect()),
                accent_colour=discord.Colour.red(),
            )
        )


class ImageView(ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(
            ui.Container(
                ui.TextDisplay("Here is your card"),
                ui.MediaGallery(discord.MediaGalleryItem("attachment://card.png")),
            )
        )


class NameModal(ui.Modal, title="Tell me your name"):
    name: ui.Label[Any] = ui.Label(
        text="Your name", component=ui.TextInput(custom_id="form:name", max_length=32)
    )
    comment: ui.TextInput[Any] = ui.TextInput(
        label="Comment", custom_id="form:comment", required=False
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(self.name.component, ui.TextInput)
        text = f"Hello {self.name.component.value}"
        if self.comment.value:
            text += f" ({self.comment.value})"
        await interaction.response.send_message(text, ephemeral=True)


demo = app_commands.Group(name="demo", description="Demo commands")
admin = app_commands.Group(
    name="admin",
    description="Admin commands",
    parent=demo,
)


@demo.command(name="panel", description="Post the counter panel")
async def panel(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(view=PanelView(0))


@demo.command(name="secret", description="Ephemeral reply")
async def secret(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("Only you can see this", ephemeral=True)


@demo.command(name="image", description="Deferred reply with an image")
async def image(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer(thinking=True)
    file = discord.File(io.BytesIO(make_png()), filename="card.png")
    await interaction.followup.send(view=ImageView(), file=file)
    await interaction.followup.send("Image sent", ephemeral=True)


@demo.command(name="card", description="Immediate V2 reply with an image")
async def card(interaction: discord.Interaction[Any]) -> None:
    file = discord.File(io.BytesIO(make_png(color="blue")), filename="card.png")
    await interaction.response.send_message(view=ImageView(), file=file)


@demo.command(name="form", description="Open a modal")
async def form(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(NameModal())


@demo.command(name="announce", description="Channel message, edit and thread")
@app_commands.describe(text="What to announce")
async def announce(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.response.send_message("Posting…", ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send(f"Announcement: {text}")
    await msg.edit(content=f"Announcement (edited): {text}")
    thread = await msg.create_thread(name="discussion")
    await thread.send("Thread started")
    await interaction.edit_original_response(content="Posted")


FRUITS = ["apple", "apricot", "banana", "cherry"]


@demo.command(name="pick", description="Pick a fruit (autocomplete)")
async def pick(interaction: discord.Interaction[Any], fruit: str) -> None:
    await interaction.response.send_message(f"You picked {fruit} <@{interaction.user.id}>")


@pick.autocomplete("fruit")
async def pick_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current)]


@demo.command(name="slow", description="Answer late")
async def slow(interaction: discord.Interaction[Any]) -> None:
    bot = interaction.client
    await asyncio.sleep(getattr(bot, "slow_delay", 0.0))
    await interaction.response.send_message("finally")


@demo.command(name="whoami", description="Your locale and the server's")
async def whoami(interaction: discord.Interaction[Any]) -> None:
    guild_locale = interaction.guild_locale.value if interaction.guild_locale else "-"
    text = f"locale={interaction.locale.value} guild_locale={guild_locale}"
    await interaction.response.send_message(text, ephemeral=True)


@demo.command(name="hand", description="Show your private hand, kept up to date")
async def hand(interaction: discord.Interaction[Any]) -> None:
    bot = interaction.client
    assert isinstance(bot, MinimalBot)
    await interaction.response.send_message("Dealing…", ephemeral=True)
    count = bot.hand_versions[interaction.user.id] = (
        bot.hand_versions.get(interaction.user.id, 0) + 1
    )
    text = f"Hand #{count}"
    previous = bot.hands.get(interaction.user.id)
    if previous is not None:
        try:
            await previous.edit(content=text)
            return
        except discord.HTTPException:  # its token expired (or it is gone): deal a new one
            pass
    bot.hands[interaction.user.id] = await interaction.followup.send(
        text, ephemeral=True, wait=True
    )


@demo.command(name="fold", description="Delete your private hand")
async def fold(interaction: discord.Interaction[Any]) -> None:
    bot = interaction.client
    assert isinstance(bot, MinimalBot)
    await interaction.response.send_message("Folded", ephemeral=True)
    previous = bot.hands.pop(interaction.user.id, None)
    if previous is not None:
        await previous.delete()


@admin.command(name="greet", description="Greet a member")
@app_commands.describe(member="Who to greet", style="How")
@app_commands.choices(
    style=[
        app_commands.Choice(name="Formal", value="formal"),
        app_commands.Choice(name="Casual", value="casual"),
    ]
)
async def greet(
    interaction: discord.Interaction[Any],
    member: discord.Member,
    style: app_commands.Choice[str],
) -> None:
    word = "Good day" if style.value == "formal" else "Hey"
    await interaction.response.send_message(
        f"{word}, {discord.utils.escape_markdown(member.display_name)}!",
        allowed_mentions=discord.AllowedMentions.none(),
    )


@app_commands.command(name="settings", description="Server settings")
@app_commands.default_permissions(manage_guild=True)
async def settings(interaction: discord.Interaction[Any]) -> None:
    # Discord hides this command from members without Manage Guild.
    await interaction.response.send_message("Settings", ephemeral=True)


class MinimalBot(commands.Bot):
    def __init__(self, *, sync_guild_id: int | None = None, **options: Any) -> None:
        # options: discord.Client's, e.g. shard_id and shard_count for one shard of several.
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options
        )
        self.sync_guild_id = sync_guild_id
        self.slow_delay = 0.0
        self.hands: dict[int, discord.WebhookMessage] = {}
        self.hand_versions: dict[int, int] = {}

    async def setup_hook(self) -> None:
        # Dynamic items are matched by custom_id regex: clicks on messages sent by a previous
        # process still work.
        self.add_dynamic_items(CounterButton)
        self.tree.add_command(demo)
        self.tree.add_command(settings)
        if self.sync_guild_id is not None:
            guild = discord.Object(self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
