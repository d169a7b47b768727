"""Message storage: building messages from the bot's payloads (validated, attachments
resolved, components numbered), edits with history, deletes, enforced nonces, the per-channel
rate limit, the age limit on edits, and the gateway events that follow."""

from __future__ import annotations

import copy
import io
import mimetypes
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fake_discord.channels import FakeChannel
from fake_discord.clock import iso
from fake_discord.components import assign_component_ids, media_of, walk_components
from fake_discord.constants import (
    FLAG_EPHEMERAL,
    FLAG_IS_COMPONENTS_V2,
    FLAG_LOADING,
    INTENT_GUILD_MESSAGES,
    JSON,
)
from fake_discord.errors import DiscordHTTPError, FormErrors
from fake_discord.interactions import FakeInteraction
from fake_discord.messages import FakeAttachment, FakeMessage
from fake_discord.users import FakeUser
from fake_discord.validation import ATTACHMENT_SCHEME, raise_for_message
from fake_discord.watch import MessageChanged

if TYPE_CHECKING:
    from fake_discord.gateway import Gateway
    from fake_discord.state import FakeState

Files = list[tuple[str, bytes]]


class MessageStore:
    """Creates, edits and deletes messages on behalf of the routes and the user simulation."""

    def __init__(self, fake: FakeState, gateway: Gateway) -> None:
        self.fake = fake
        self.gateway = gateway  # announces each change to the bot

    # ----- storing and announcing -----

    def store(
        self,
        channel: FakeChannel,
        author: FakeUser,
        *,
        content: str = "",
        embeds: list[JSON] | None = None,
        components: list[JSON] | None = None,
        attachments: list[FakeAttachment] | None = None,
        flags: int = 0,
        type: int = 0,
        ephemeral_to: int | None = None,
        interaction: FakeInteraction | None = None,
        webhook_id: int | None = None,
        allowed_mentions: JSON | None = None,
        nonce: str | int | None = None,
    ) -> FakeMessage:
        fake = self.fake
        mid = fake.snowflake()
        msg = FakeMessage(
            id=mid,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=content or "",
            embeds=embeds or [],
            components=components or [],
            attachments=attachments or [],
            flags=flags,
            type=type,
            ephemeral_to=ephemeral_to,
            interaction_metadata=None if interaction is None else interaction.metadata(),
            webhook_id=webhook_id,
            allowed_mentions=allowed_mentions,
            nonce=nonce,
        )
        msg.created_at = iso(msg.created_timestamp)
        fake.messages[msg.id] = msg
        fake.channel_messages.setdefault(channel.id, []).append(msg)
        if ephemeral_to is None:
            channel.last_message_id = msg.id
            channel.message_count += 1
        fake._emit(MessageChanged(msg))
        fake._notify()
        return msg

    async def dispatch(self, event: str, msg: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE to bots with the intent (never for ephemerals)."""
        if msg.ephemeral_to is not None:
            return
        fake = self.fake
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        else:
            data = msg.to_payload()
            guild = fake.guilds.get(msg.guild_id) if msg.guild_id else None
            if guild is not None and msg.author.id in guild.members:
                member = guild.members[msg.author.id].to_payload()
                member.pop("user")
                data["member"] = member
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        await self.gateway.broadcast(
            event, lambda s: data, guild_id=msg.guild_id or None, intent=INTENT_GUILD_MESSAGES
        )

    def record(self, kind: str, msg: FakeMessage, via: str) -> None:
        self.fake.traffic.record_write(kind, msg.channel_id, msg.id, via)

    # ----- attachments and media -----

    def make_attachments(
        self, meta: list[JSON] | None, files: Files, existing: list[FakeAttachment]
    ) -> list[FakeAttachment] | None:
        """Resolve a payload `attachments` list: new uploads by index, kept ones by id.
        Returns None when the payload does not touch attachments."""
        if meta is None and not files:
            return None
        by_id = {a.id: a for a in existing}
        out: list[FakeAttachment] = []
        used_indexes: set[int] = set()
        for i, entry in enumerate(meta if meta is not None else []):
            aid = int(entry["id"])
            if aid in by_id:
                kept = by_id[aid]
                if "description" in entry:
                    kept.description = entry["description"]
                out.append(kept)
            elif 0 <= aid < len(files):
                used_indexes.add(aid)
                name = entry.get("filename") or files[aid][0]
                out.append(self._new_attachment(name, files[aid][1], entry.get("description")))
            else:
                errors = FormErrors()
                errors.add(["attachments", i, "id"], "ATTACHMENT_NOT_FOUND", "Unknown attachment")
                errors.raise_if_any()
        for index, (name, data) in enumerate(files):
            if index not in used_indexes:
                out.append(self._new_attachment(name, data, None))
        return out

    def _new_attachment(
        self, filename: str, data: bytes, description: str | None
    ) -> FakeAttachment:
        fake = self.fake
        aid = fake.snowflake()
        width = height = None
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if content_type.startswith("image/"):
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as img:
                    width, height = img.size
            except Exception:  # not a decodable image: Discord omits the dimensions too
                pass
        att = FakeAttachment(
            aid,
            filename,
            data,
            f"{fake.base_url}/attachments/{aid}/{filename}",
            content_type,
            width,
            height,
            description,
        )
        fake.attachments[aid] = att
        return att

    @staticmethod
    def resolve_media(components: list[JSON], attachments: list[FakeAttachment]) -> None:
        """Like Discord: echo attachment:// media as resolved CDN urls with dimensions."""
        by_name = {a.filename: a for a in attachments}
        for comp in walk_components(components):
            for media in media_of(comp):
                url = media.get("url", "")
                name = url[len(ATTACHMENT_SCHEME) :]
                if url.startswith(ATTACHMENT_SCHEME) and name in by_name:
                    att = by_name[name]
                    media.update(
                        url=att.url,
                        proxy_url=att.url,
                        content_type=att.content_type,
                        attachment_id=str(att.id),
                        loading_state=2,
                        flags=0,
                    )
                    if att.width is not None:
                        media.update(width=att.width, height=att.height)

    # ----- create, edit, delete -----

    def build(
        self,
        channel: FakeChannel,
        body: JSON,
        files: Files,
        *,
        ephemeral_to: int | None = None,
        interaction: FakeInteraction | None = None,
        type: int = 0,
    ) -> FakeMessage:
        """Validate, then store a message from a create payload (the bot is the author)."""
        fake = self.fake
        flags = int(body.get("flags") or 0)
        attachments = self.make_attachments(body.get("attachments"), files, []) or []
        components = copy.deepcopy(body.get("components") or [])
        content = body.get("content") or ""
        embeds = body.get("embeds") or []
        self._validate(
            attachments,
            content=content,
            embeds=embeds,
            components=components,
            flags=flags,
            attachments={a.filename for a in attachments},
            nonce=body.get("nonce"),
        )
        self.resolve_media(components, attachments)
        assign_component_ids(components)
        return self.store(
            channel,
            fake.bot_user,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=type,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
            webhook_id=fake.application_id if interaction else None,
            allowed_mentions=body.get("allowed_mentions"),
            nonce=body.get("nonce"),
        )

    def apply_edit(self, msg: FakeMessage, body: JSON, files: Files) -> None:
        """Validate then apply a PATCH payload (only present fields change); keep history."""
        new_attachments = self.make_attachments(body.get("attachments"), files, msg.attachments)
        flags = msg.flags
        if "flags" in body and body["flags"] is not None:
            # IS_COMPONENTS_V2 cannot be removed once set; ephemeral/loading are kept.
            flags = int(body["flags"]) | (msg.flags & (FLAG_IS_COMPONENTS_V2 | FLAG_EPHEMERAL))
        if msg.is_loading:
            flags &= ~FLAG_LOADING
        content = (body.get("content") or "") if "content" in body else msg.content
        embeds = (body.get("embeds") or []) if "embeds" in body else msg.embeds
        components = copy.deepcopy(
            (body.get("components") or []) if "components" in body else msg.components
        )
        attachments = new_attachments if new_attachments is not None else msg.attachments
        # Validate the whole resulting message: e.g. dropping an attachment that a re-sent
        # component still references via attachment:// must fail.
        self._validate(
            [a for a in attachments if a not in msg.attachments],
            content=content,
            embeds=embeds,
            components=components,
            flags=flags,
            attachments={a.filename for a in attachments},
        )
        if "components" in body:
            self.resolve_media(components, attachments)
            assign_component_ids(components)
        if not msg.is_loading:
            if self.fake.keep_history:
                msg.history.append(msg.to_payload())
            msg.edits += 1
            msg.edited_at = iso(self.fake.now())
        self.forget_attachments(a for a in msg.attachments if a not in attachments)
        msg.content = content
        msg.embeds = embeds
        msg.components = components
        msg.attachments = attachments
        msg.flags = flags
        self.fake._emit(MessageChanged(msg))
        self.fake._notify()

    def _validate(self, uploaded: list[FakeAttachment], **message: Any) -> None:
        """Discord's limits on a message; a refused one frees the pictures it uploaded."""
        try:
            raise_for_message(**message)
        except DiscordHTTPError:
            self.forget_attachments(uploaded)
            raise

    def forget_attachments(self, attachments: Iterable[FakeAttachment]) -> None:
        """Free the bytes of attachments no message shows any more, when the fake keeps no
        history (a test may still read replaced ones otherwise)."""
        if self.fake.keep_history:
            return
        for att in list(attachments):
            self.fake.attachments.pop(att.id, None)

    async def delete(self, msg: FakeMessage, via: str) -> None:
        msg.deleted = True
        self.forget_attachments(msg.attachments)
        self.fake._emit(MessageChanged(msg))
        self.record("delete", msg, via)
        await self.dispatch("MESSAGE_DELETE", msg)
        self.fake._notify()

    # ----- Discord's rules on writes -----

    def nonce_match(
        self, channel: FakeChannel, author: FakeUser, nonce: object
    ) -> FakeMessage | None:
        """The message the same author posted in the channel with this nonce within
        `nonce_window` seconds (Discord then returns it instead of posting again)."""
        if nonce is None:
            return None
        fake = self.fake
        now = fake.now()
        for msg in reversed(fake.channel_messages.get(channel.id, [])):
            if now - msg.created_timestamp > fake.nonce_window:
                break
            if (
                msg.author.id == author.id
                and msg.nonce is not None
                and str(msg.nonce) == str(nonce)
            ):
                return msg
        return None

    def check_rate_limit(self, channel_id: int, method: str, path: str) -> None:
        """429 when the channel already took `channel_rate_limit` writes in its window."""
        fake = self.fake
        if fake.channel_rate_limit is None:
            return
        limit, per = fake.channel_rate_limit
        recent = fake.traffic.recent_writes(channel_id, "channel", per)
        if len(recent) >= limit:
            now = fake.now()
            retry_after = per - (now - recent[0].at)
            fake.rate_limited.append((method, path, now))
            raise DiscordHTTPError(
                429,
                20028,
                "You are being rate limited.",
                extra={"retry_after": retry_after, "global": False},
            )

    def check_age_limit(self, msg: FakeMessage) -> None:
        """Discord's 30046: an old message that already took many edits takes no more."""
        fake = self.fake
        old = fake.now() - msg.created_timestamp > fake.old_message_age
        if old and msg.edit_count >= fake.old_message_edit_limit:
            raise DiscordHTTPError(
                429,
                30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
                extra={"retry_after": 0.0, "global": False},
            )
