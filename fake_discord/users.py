"""Users of the fake world, as Discord serialises them."""

from __future__ import annotations

from dataclasses import dataclass

from fake_discord.constants import DEFAULT_LOCALE, JSON


@dataclass(eq=False)
class FakeUser:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    # The language of the user's client: sent as `locale` with each of their interactions.
    locale: str = DEFAULT_LOCALE

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
