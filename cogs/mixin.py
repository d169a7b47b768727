"""The base of the command mixins that UnoCog combines under /uno."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.engine.cards import EDITION_TITLES, Edition

if TYPE_CHECKING:
    # For the type checker app commands need a Cog as ``self``; at run time the mixins stay
    # plain classes so UnoCog's MRO has a single GroupCog.
    CommandMixin = commands.GroupCog
else:
    CommandMixin = object

EDITION_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=EDITION_TITLES[edition], value=edition.value) for edition in Edition
]
