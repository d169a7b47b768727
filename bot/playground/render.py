"""What the page shows, built from the fake's state: messages (Components V2 trees, embeds,
attachments) as escaped HTML with the data the page acts on, channels, modals and notices.

Interactive parts carry `data-action` and `data-custom-id`; the page sends them back through
the API, which goes through the fake's own user simulation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.playground.emoji import draw_emoji, plain_emoji
from bot.playground.markdown import DISCORD_LINK, Markdown, esc
from bot.playground.world import PlaygroundWorld
from fake_discord import FakeChannel, FakeInteraction, FakeMessage
from fake_discord.components import media_of
from fake_discord.constants import (
    C_ACTION_ROW,
    C_BUTTON,
    C_CHANNEL_SELECT,
    C_CONTAINER,
    C_FILE,
    C_LABEL,
    C_MEDIA_GALLERY,
    C_MENTIONABLE_SELECT,
    C_ROLE_SELECT,
    C_SECTION,
    C_SEPARATOR,
    C_STRING_SELECT,
    C_TEXT_DISPLAY,
    C_TEXT_INPUT,
    C_THUMBNAIL,
    C_USER_SELECT,
    CH_TEXT,
    ITX_APPLICATION_COMMAND,
    JSON,
)

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
SELECTS = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)
ATTACHMENTS_PATH = "/attachments/"


def colour(value: int | None) -> str | None:
    return None if value is None else f"#{value & 0xFFFFFF:06x}"


class PageRenderer:
    """Turns the fake's messages, channels and modals into what the page shows."""

    def __init__(self, world: PlaygroundWorld) -> None:
        self.world = world
        self.markdown = Markdown(world, world.fake.now)

    # ----- messages -----

    def message(self, msg: FakeMessage) -> JSON:
        """One message as the page shows it (`deleted` ones only say so)."""
        view: JSON = {"id": str(msg.id), "channel": str(msg.channel_id), "deleted": msg.deleted}
        if msg.deleted:
            return view
        author = msg.author
        view.update(
            author=self.world.user_name(author.id) or author.username,
            bot=author.bot,
            timestamp=msg.created_at,
            edited=msg.edited_at is not None,
            ephemeral=msg.ephemeral_to is not None,
            loading=msg.is_loading,
            html=self._body(msg),
            used=self._used(msg.interaction_metadata),
            thread=self._thread(msg),
        )
        return view

    def _used(self, meta: JSON | None) -> JSON | None:
        """`Alice used /uno new` above a command's answer (from its interaction's metadata)."""
        if meta is None or meta["type"] != ITX_APPLICATION_COMMAND:
            return None
        user = meta["user"]
        name = self.world.user_name(int(user["id"])) or user["username"]
        return {"user": name, "command": meta["name"]}

    def _thread(self, msg: FakeMessage) -> JSON | None:
        thread = msg.thread
        if thread is None or thread.deleted:
            return None
        return {"id": str(thread.id), "name": thread.name}

    def _body(self, msg: FakeMessage) -> str:
        parts: list[str] = []
        if msg.content:
            parts.append(f'<div class="content">{self.markdown.render(msg.content)}</div>')
        parts += [self._embed(e) for e in msg.embeds]
        if msg.components:
            parts.append(self.components(msg.components))
        if not msg.is_v2:
            referenced = {m.get("url") for c in msg.walk() for m in media_of(c)}
            loose = [a for a in msg.attachments if a.url not in referenced]
            parts += [
                self._attachment(
                    {"url": a.url, "width": a.width, "height": a.height},
                    a.filename,
                    a.content_type,
                )
                for a in loose
            ]
        return "".join(parts)

    def _embed(self, embed: JSON) -> str:
        parts = []
        if embed.get("author", {}).get("name"):
            parts.append(f'<div class="embed-author">{esc(embed["author"]["name"])}</div>')
        if embed.get("title"):
            parts.append(f'<div class="embed-title">{self.markdown.inline(embed["title"])}</div>')
        if embed.get("description"):
            parts.append(self.markdown.render(embed["description"]))
        fields = []
        for f in embed.get("fields", []):
            inline = " inline" if f.get("inline") else ""
            fields.append(
                f'<div class="embed-field{inline}"><div class="embed-field-name">'
                f"{self.markdown.inline(f.get('name', ''))}</div>"
                f"{self.markdown.render(f.get('value', ''))}</div>"
            )
        if fields:
            parts.append(f'<div class="embed-fields">{"".join(fields)}</div>')
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url")
            if url:
                parts.append(self._media(embed[key], None, f"embed-{key}"))
        if embed.get("footer", {}).get("text"):
            parts.append(f'<div class="embed-footer">{esc(embed["footer"]["text"])}</div>')
        return f'<div class="embed"{_accent(embed.get("color"))}>{"".join(parts)}</div>'

    # ----- components -----

    def components(self, components: Iterable[JSON]) -> str:
        return "".join(self.component(c) for c in components)

    def component(self, comp: JSON) -> str:
        kind = comp.get("type")
        if kind == C_CONTAINER:
            spoiler = " spoiler-box" if comp.get("spoiler") else ""
            inner = self.components(comp.get("components", []))
            accent = _accent(comp.get("accent_color"))
            return f'<div class="container{spoiler}"{accent}>{inner}</div>'
        if kind == C_ACTION_ROW:
            return f'<div class="row">{self.components(comp.get("components", []))}</div>'
        if kind == C_SECTION:
            accessory = comp.get("accessory")
            side = f'<div class="accessory">{self.component(accessory)}</div>' if accessory else ""
            inner = self.components(comp.get("components", []))
            return f'<div class="section"><div class="section-text">{inner}</div>{side}</div>'
        if kind == C_TEXT_DISPLAY:
            return f'<div class="text">{self.markdown.render(comp.get("content", ""))}</div>'
        if kind == C_MEDIA_GALLERY:
            items = comp.get("items", [])
            shown = "".join(
                self._media(
                    item.get("media") or {},
                    item.get("description"),
                    "spoiler-box" if item.get("spoiler") else "",
                )
                for item in items
            )
            return f'<div class="gallery gallery-{min(len(items), 4)}">{shown}</div>'
        if kind == C_THUMBNAIL:
            return self._media(comp.get("media") or {}, comp.get("description"), "thumbnail")
        if kind == C_FILE:
            file = comp.get("file") or {}
            return self._attachment(file, str(file.get("url", "")).rsplit("/", 1)[-1], None)
        if kind == C_SEPARATOR:
            spacing = 2 if comp.get("spacing") == 2 else 1
            if comp.get("divider", True):
                return f'<hr class="separator spacing-{spacing}">'
            return f'<div class="separator spacing-{spacing}"></div>'
        if kind == C_BUTTON:
            return self._button(comp)
        if kind in SELECTS:
            return self._select(comp)
        return f'<div class="unknown">(a component of type {esc(str(kind))})</div>'

    def _button(self, comp: JSON) -> str:
        style = BUTTON_STYLES.get(comp.get("style", 1), "secondary")
        emoji = _emoji(comp.get("emoji"))
        label = comp.get("label")
        label = f'<span class="label">{draw_emoji(esc(label))}</span>' if label else ""
        disabled = " disabled" if comp.get("disabled") else ""
        url = comp.get("url")
        inside = DISCORD_LINK.match(str(url)) if url else None
        if inside is not None and not disabled:  # a Discord link opens here, on the page
            message = inside.group("message")
            to = f' data-message="{message}"' if message else ""
            return (
                f'<a class="button link" href="#" data-channel="{inside.group("channel")}"{to}>'
                f"{emoji}{label}</a>"
            )
        if url:
            if not str(url).startswith(("http://", "https://")) or disabled:
                return f'<span class="button {style} disabled">{emoji}{label}</span>'
            return (
                f'<a class="button link" href="{esc(url)}" target="_blank" '
                f'rel="noopener noreferrer">{emoji}{label}<span class="external">↗</span></a>'
            )
        if comp.get("sku_id") is not None:
            return f'<span class="button premium disabled">{emoji}{label}</span>'
        return (
            f'<button type="button" class="button {style}" data-action="click" '
            f'data-custom-id="{esc(comp.get("custom_id", ""))}"{disabled}>{emoji}{label}</button>'
        )

    def _select(self, comp: JSON) -> str:
        options = self._select_options(comp)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        placeholder = esc(comp.get("placeholder") or "Make a selection")
        custom_id = esc(comp.get("custom_id", ""))
        disabled = " disabled" if comp.get("disabled") else ""
        if high <= 1:
            choices = "".join(
                f'<option value="{esc(value)}"{" selected" if chosen else ""}>{esc(label)}</option>'
                for value, label, chosen in options
            )
            anything = any(chosen for _, _, chosen in options)
            blank = (
                f'<option value="" disabled{"" if anything else " selected"}>{placeholder}</option>'
            )
            return (
                f'<select class="select" data-action="select" data-custom-id="{custom_id}"'
                f"{disabled}>{blank}{choices}</select>"
            )
        boxes = "".join(
            f'<label class="choice"><input type="checkbox" value="{esc(value)}"'
            f"{' checked' if chosen else ''}{disabled}> {esc(label)}</label>"
            for value, label, chosen in options
        )
        return (
            f'<details class="multi-select" data-custom-id="{custom_id}" data-min="{low}" '
            f'data-max="{high}"><summary>{placeholder}</summary>{boxes}'
            f'<button type="button" class="button primary" data-action="select-many"{disabled}>'
            f"Choose</button></details>"
        )

    def _select_options(self, comp: JSON) -> list[tuple[str, str, bool]]:
        """(value, label, chosen) of a select: its own options, or the server's users,
        roles or channels for the auto-populated kinds."""
        kind = comp.get("type")
        if kind == C_STRING_SELECT:
            out = []
            for opt in comp.get("options", []):
                emoji = _emoji_text(opt.get("emoji"))
                label = plain_emoji(f"{emoji} {opt['label']}" if emoji else opt["label"])
                if opt.get("description"):
                    label += f" — {opt['description']}"
                out.append((opt["value"], label, bool(opt.get("default"))))
            return out
        defaults = {str(d.get("id")) for d in comp.get("default_values", [])}
        world = self.world
        pairs: list[tuple[int, str]] = []
        if kind in (C_USER_SELECT, C_MENTIONABLE_SELECT):
            pairs += [(uid, "@" + (world.user_name(uid) or "?")) for uid in world.guild.members]
        if kind in (C_ROLE_SELECT, C_MENTIONABLE_SELECT):
            pairs += [(r.id, "@" + r.name.lstrip("@")) for r in world.guild.roles.values()]
        if kind == C_CHANNEL_SELECT:
            pairs += [(c.id, "#" + c.name) for c in world.channels()]
        return [(str(i), label, str(i) in defaults) for i, label in pairs]

    def _media(self, media: JSON, description: str | None, extra: str) -> str:
        """A picture the bot uploaded, at its size (the page does not jump as it loads);
        anything else stays a link (the page loads nothing from outside this machine)."""
        url = str(media.get("url", ""))
        local = self.local_url(url)
        alt = esc(description or "")
        if local is None:
            href = esc(url)
            return f'<a class="external-media {extra}" href="{href}" rel="noopener">{href}</a>'
        width, height = media.get("width"), media.get("height")
        size = ""
        if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
            size = f' width="{width}" height="{height}"'
        return (
            f'<a class="media {extra}" href="{esc(local)}" target="_blank">'
            f'<img src="{esc(local)}" alt="{alt}"{size} loading="lazy"></a>'
        )

    def _attachment(self, media: JSON, filename: str, content_type: str | None) -> str:
        url = str(media.get("url", ""))
        local = self.local_url(url)
        if local is not None and (content_type or "").startswith("image/"):
            return self._media(media, filename, "attachment")
        href = esc(local or url)
        return f'<a class="file" href="{href}" download>↓ {esc(filename)}</a>'

    def local_url(self, url: str) -> str | None:
        """The page's own address of one of the fake's attachments (None: not one)."""
        prefix = self.world.fake.base_url + ATTACHMENTS_PATH
        if not url.startswith(prefix):
            return None
        return ATTACHMENTS_PATH + url[len(prefix) :]

    # ----- channels, modals -----

    def channels(self) -> list[JSON]:
        return [self.channel(c) for c in self.world.channels()]

    def channel(self, channel: FakeChannel) -> JSON:
        return {
            "id": str(channel.id),
            "name": channel.name,
            "thread": channel.is_thread,
            "parent": str(channel.parent_id) if channel.parent_id else None,
            "archived": channel.archived,
            "locked": channel.locked,
            "text": channel.type == CH_TEXT,
        }

    def modal(self, itx: FakeInteraction) -> JSON:
        """A modal the bot opened, as a form whose fields are named by custom id."""
        assert itx.modal is not None
        fields = []
        for comp in itx.modal.components:
            if comp.get("type") == C_TEXT_DISPLAY:
                fields.append(f'<div class="text">{self.markdown.render(comp["content"])}</div>')
                continue
            inner: list[tuple[JSON, str | None, str | None]] = []
            if comp.get("type") == C_LABEL:
                inner.append((comp["component"], comp.get("label"), comp.get("description")))
            elif comp.get("type") == C_ACTION_ROW:
                inner += [(c, c.get("label"), None) for c in comp.get("components", [])]
            fields += [self._modal_field(c, label, hint) for c, label, hint in inner]
        return {
            "interaction": str(itx.id),
            "title": itx.modal.title,
            "html": "".join(fields),
        }

    def _modal_field(self, comp: JSON, label: str | None, hint: str | None) -> str:
        custom_id = esc(comp.get("custom_id", ""))
        required = comp.get("required", True)
        star = '<span class="required">*</span>' if required else ""
        head = f'<span class="field-label">{esc(label or "")}{star}</span>'
        if hint:
            head += f'<span class="field-hint">{esc(hint)}</span>'
        if comp.get("type") == C_TEXT_INPUT:
            attrs = (
                f' name="{custom_id}" minlength="{int(comp.get("min_length", 0))}"'
                f' maxlength="{int(comp.get("max_length", 4000))}"'
                f' placeholder="{esc(comp.get("placeholder") or "")}"'
                + (" required" if required else "")
            )
            value = esc(comp.get("value") or "")
            if comp.get("style") == 2:
                control = f"<textarea{attrs} rows=4>{value}</textarea>"
            else:
                control = f'<input type="text"{attrs} value="{value}">'
        elif comp.get("type") == C_STRING_SELECT:
            high = int(comp.get("max_values", 1))
            multiple = " multiple" if high > 1 else ""
            options = "".join(
                f'<option value="{esc(v)}"{" selected" if chosen else ""}>{esc(text)}</option>'
                for v, text, chosen in self._select_options(comp)
            )
            control = f'<select name="{custom_id}"{multiple}>{options}</select>'
        else:
            control = f'<span class="unknown">(type {esc(str(comp.get("type")))})</span>'
        return f'<label class="field">{head}{control}</label>'


def _accent(value: Any) -> str:
    shade = colour(value) if isinstance(value, int) else None
    return f' data-accent="{shade}"' if shade else ""


def _emoji_text(emoji: JSON | None) -> str:
    if not emoji:
        return ""
    if emoji.get("id"):
        return f":{emoji.get('name') or 'emoji'}:"
    return str(emoji.get("name") or "")


def _emoji(emoji: JSON | None) -> str:
    text = _emoji_text(emoji)
    return f'<span class="emoji">{draw_emoji(esc(text))}</span>' if text else ""
