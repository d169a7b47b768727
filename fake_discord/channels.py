"""Channels of the fake world: text channels, threads and DMs."""

from __future__ import annotations

from dataclasses import dataclass, field

from fake_discord.clock import SystemClock, iso
from fake_discord.constants import CH_DM, CH_TEXT, JSON, THREAD_TYPES
from fake_discord.users import FakeUser


def _now_iso() -> str:
    return iso(SystemClock().time())


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = CH_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    overwrites: list[JSON] = field(default_factory=list)
    recipients: list[FakeUser] = field(default_factory=list)  # DMs
    thread_members: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    message_count: int = 0
    created_at: str = field(default_factory=_now_iso)
    # Set when the channel is deleted: REST calls then answer 404 Unknown Channel.
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> JSON:
        payload: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }
        if self.type == CH_DM:
            payload["recipients"] = [u.to_payload() for u in self.recipients]
            return payload
        payload.update(
            guild_id=str(self.guild_id),
            position=self.position,
            permission_overwrites=self.overwrites,
            parent_id=str(self.parent_id) if self.parent_id else None,
            nsfw=False,
            rate_limit_per_user=0,
        )
        if self.is_thread:
            payload.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                member_count=len(self.thread_members),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            payload.update(topic=None, default_auto_archive_duration=1440)
        return payload
