"""Discord's markdown as HTML, for the playground page: headings, subtext, quotes, lists, code,
bold, italics, underline, strike, spoilers, links, mentions (shown by name, never pinging)
and timestamps. Every piece of text is escaped; only http(s) links become links."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable
from typing import Protocol

from .emoji import draw_emoji


class Names(Protocol):
    """How mentions read: the names of users, channels and roles by id (None: unknown)."""

    def user_name(self, user_id: int) -> str | None: ...

    def channel_name(self, channel_id: int) -> str | None: ...

    def role_name(self, role_id: int) -> str | None: ...


def esc(text: str) -> str:
    return html.escape(text, quote=True)


_INLINE_PARTS = [
    r"(?P<escape>\\(?P<escaped>[^\w\s]))",
    r"(?P<code>(?P<ticks>`{1,3})(?P<code_body>.+?)(?P=ticks))",
    r"(?P<user><@!?(?P<user_id>\d{1,20})>)",
    r"(?P<role><@&(?P<role_id>\d{1,20})>)",
    r"(?P<channel><#(?P<channel_id>\d{1,20})>)",
    r"(?P<slash></(?P<slash_name>[-_'\w]+(?: [-_'\w]+){0,2}):(?P<slash_id>\d{1,20})>)",
    r"(?P<time><t:(?P<time_value>-?\d{1,13})(?::(?P<time_style>[tTdDfFR]))?>)",
    r"(?P<emoji><a?:(?P<emoji_name>\w{2,32}):\d{1,20}>)",
    r"(?P<link>\[(?P<link_text>[^\[\]\n]+)\]\(<?(?P<link_url>https?://[^\s()<>]+)>?\))",
    r"(?P<angle_url><(?P<angle_href>https?://[^\s<>]+)>)",
    r"(?P<url>https?://[^\s<>]*[^\s<>.,:;\"')\]*_~|])",
    r"(?P<everyone>@(?:everyone|here)\b)",
    r"(?P<bold_italic>\*\*\*(?P<bi_body>.+?)\*\*\*)",
    r"(?P<bold>\*\*(?P<bold_body>.+?)\*\*)",
    r"(?P<underline>__(?P<underline_body>.+?)__)",
    r"(?P<italic>\*(?![\s*])(?P<italic_body>(?:\*\*[^*]+\*\*|[^*])+?)(?<!\s)\*(?!\*))",
    r"(?P<italic_u>(?<!\w)_(?P<iu_body>[^_\s](?:[^_]*[^_\s])?)_(?!\w))",
    r"(?P<strike>~~(?P<strike_body>.+?)~~)",
    r"(?P<spoiler>\|\|(?P<spoiler_body>.+?)\|\|)",
]
_INLINE = re.compile("|".join(_INLINE_PARTS))

_HEADING = re.compile(r"^(#{1,3}) +(\S.*)$")
_SUBTEXT = re.compile(r"^-# +(\S.*)$")
_LIST_ITEM = re.compile(r"^( *)([-*]|\d{1,9}\.) +(\S.*)$")

_WRAPS = {
    "bold": ("<strong>", "</strong>", "bold_body"),
    "underline": ("<u>", "</u>", "underline_body"),
    "italic": ("<em>", "</em>", "italic_body"),
    "italic_u": ("<em>", "</em>", "iu_body"),
    "strike": ("<s>", "</s>", "strike_body"),
    "spoiler": ('<span class="spoiler" tabindex="0">', "</span>", "spoiler_body"),
    "bold_italic": ("<strong><em>", "</em></strong>", "bi_body"),
}


class Markdown:
    """Renders message text as Discord shows it; `now` dates relative timestamps."""

    def __init__(self, names: Names, now: Callable[[], float]) -> None:
        self.names = names
        self.now = now

    # ----- blocks -----

    def render(self, text: str) -> str:
        """The HTML of a whole message text (or a text display)."""
        return "".join(self._blocks(text.replace("\r\n", "\n").split("\n")))

    def _blocks(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        para: list[str] = []

        def flush() -> None:
            if para:
                out.append("<p>" + "<br>".join(para) + "</p>")
                para.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            fence_end = self._fence_end(lines, i)
            if fence_end is not None:
                flush()
                out.append(self._code_block(lines, i, fence_end))
                i = fence_end + 1
                continue
            if line.startswith(">>> "):
                flush()
                rest = [line[4:], *lines[i + 1 :]]
                out.append("<blockquote>" + "".join(self._blocks(rest)) + "</blockquote>")
                break
            if line.startswith("> ") or line == ">":
                flush()
                quoted = []
                while i < len(lines) and (lines[i].startswith("> ") or lines[i] == ">"):
                    quoted.append(lines[i][2:])
                    i += 1
                out.append("<blockquote>" + "".join(self._blocks(quoted)) + "</blockquote>")
                continue
            if _LIST_ITEM.match(line):
                flush()
                items = []
                while i < len(lines) and (m := _LIST_ITEM.match(lines[i])):
                    items.append((len(m.group(1)), m.group(2), m.group(3)))
                    i += 1
                out.append(self._list(items))
                continue
            heading = _HEADING.match(line)
            subtext = _SUBTEXT.match(line)
            if heading:
                flush()
                level = len(heading.group(1))
                out.append(f"<h{level}>{self.inline(heading.group(2))}</h{level}>")
            elif subtext:
                flush()
                out.append(f'<div class="subtext">{self.inline(subtext.group(1))}</div>')
            elif line.strip():
                para.append(self.inline(line))
            else:
                flush()
            i += 1
        flush()
        return out

    @staticmethod
    def _fence_end(lines: list[str], start: int) -> int | None:
        """The index of the line closing a code fence opened at `start` (None: no fence)."""
        line = lines[start]
        if not line.startswith("```") or "```" in line[3:]:
            return None
        for j in range(start + 1, len(lines)):
            if "```" in lines[j]:
                return j
        return None

    @staticmethod
    def _code_block(lines: list[str], start: int, end: int) -> str:
        first = lines[start][3:]
        body = lines[start + 1 : end]
        if first.strip() and not re.fullmatch(r"[\w+#.-]+", first.strip()):
            body.insert(0, first)  # not a language name: part of the code
        tail = lines[end].split("```", 1)[0]
        if tail:
            body.append(tail)
        return f"<pre><code>{esc(chr(10).join(body))}</code></pre>"

    def _list(self, items: list[tuple[int, str, str]]) -> str:
        """Nested lists from (indent, marker, text) items."""
        out: list[str] = []
        stack: list[tuple[int, str]] = []  # (indent, tag) of the open lists
        for indent, marker, text in items:
            tag = "ul" if marker in "-*" else "ol"
            while stack and indent < stack[-1][0]:
                out.append(f"</li></{stack.pop()[1]}>")
            if stack and indent == stack[-1][0] and tag != stack[-1][1]:
                out.append(f"</li></{stack.pop()[1]}>")
            if stack and indent == stack[-1][0]:
                out.append("</li><li>")
            else:
                start = int(marker[:-1]) if tag == "ol" else 1
                opening = f'<ol start="{start}">' if tag == "ol" and start != 1 else f"<{tag}>"
                out.append(opening + "<li>")
                stack.append((indent, tag))
            out.append(self.inline(text))
        while stack:
            out.append(f"</li></{stack.pop()[1]}>")
        return "".join(out)

    # ----- inline -----

    def inline(self, text: str) -> str:
        out: list[str] = []
        pos = 0
        for m in _INLINE.finditer(text):
            out.append(draw_emoji(esc(text[pos : m.start()])))
            out.append(self._token(m))
            pos = m.end()
        out.append(draw_emoji(esc(text[pos:])))
        return "".join(out)

    def _token(self, m: re.Match[str]) -> str:
        kind = m.lastgroup
        if kind in _WRAPS:
            opening, closing, body = _WRAPS[kind]
            return opening + self.inline(m.group(body)) + closing
        if kind == "escape":
            return esc(m.group("escaped"))
        if kind == "code":
            return f"<code>{esc(m.group('code_body'))}</code>"
        if kind == "user":
            uid = int(m.group("user_id"))
            name = self.names.user_name(uid)
            label = f"@{name}" if name is not None else "@unknown-user"
            return f'<span class="mention" data-user="{uid}">{esc(label)}</span>'
        if kind == "role":
            name = self.names.role_name(int(m.group("role_id")))
            return f'<span class="mention">{esc("@" + (name or "unknown-role"))}</span>'
        if kind == "channel":
            cid = int(m.group("channel_id"))
            name = self.names.channel_name(cid)
            if name is None:
                return '<span class="mention">#unknown</span>'
            return f'<a class="mention" href="#" data-channel="{cid}">{esc("#" + name)}</a>'
        if kind == "slash":
            name = m.group("slash_name")
            return f'<a class="mention" href="#" data-command="{esc(name)}">{esc("/" + name)}</a>'
        if kind == "time":
            return self._timestamp(int(m.group("time_value")), m.group("time_style") or "f")
        if kind == "emoji":
            return f'<span class="emoji">:{esc(m.group("emoji_name"))}:</span>'
        if kind == "link":
            return _link(m.group("link_url"), self.inline(m.group("link_text")))
        if kind in ("angle_url", "url"):
            url = m.group("angle_href" if kind == "angle_url" else "url")
            return _link(url, self._link_label(url))
        if kind == "everyone":
            return f'<span class="mention">{esc(m.group("everyone"))}</span>'
        return esc(m.group(0))

    def _link_label(self, url: str) -> str:
        """A bare link as Discord writes it: a link to a channel or message by the channel's
        name (it opens on the page), any other as its address."""
        inside = DISCORD_LINK.match(url)
        if inside is None:
            return esc(url)
        name = self.names.channel_name(int(inside.group("channel"))) or "unknown"
        return esc(f"#{name}" + (" › message" if inside.group("message") else ""))

    def _timestamp(self, value: int, style: str) -> str:
        try:
            when = dt.datetime.fromtimestamp(value, dt.UTC)
        except (OverflowError, OSError, ValueError):
            return esc(f"<t:{value}:{style}>")
        text = relative(value - self.now()) if style == "R" else absolute(when, style)
        return (
            f'<time class="timestamp" datetime="{when.isoformat()}" data-ts="{value}" '
            f'data-style="{style}">{esc(text)}</time>'
        )


# A link to a Discord channel or message: the playground opens it on the page instead.
DISCORD_LINK = re.compile(
    r"^https://(?:ptb\.|canary\.)?discord(?:app)?\.com/channels/(?:\d+|@me)/(?P<channel>\d+)"
    r"(?:/(?P<message>\d+))?/?$"
)


def _link(url: str, label_html: str) -> str:
    inside = DISCORD_LINK.match(url)
    if inside is not None:
        message = inside.group("message")
        to = f' data-message="{message}"' if message else ""
        channel = inside.group("channel")
        return f'<a class="mention" href="#" data-channel="{channel}"{to}>{label_html}</a>'
    return f'<a href="{esc(url)}" target="_blank" rel="noopener noreferrer">{label_html}</a>'


def absolute(when: dt.datetime, style: str) -> str:
    """A timestamp in one of Discord's styles (the page shows it again in local time)."""
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%d/%m/%Y",
        "D": "%d %B %Y",
        "f": "%d %B %Y %H:%M",
        "F": "%A, %d %B %Y %H:%M",
    }
    return when.strftime(formats.get(style, formats["f"]))


def relative(seconds: float) -> str:
    """`in 5 minutes`, `3 hours ago`, as Discord words a relative timestamp."""
    left = abs(seconds)
    units = ((31536000, "year"), (2592000, "month"), (86400, "day"), (3600, "hour"), (60, "minute"))
    size, unit = next(((s, u) for s, u in units if left >= s), (1, "second"))
    count = round(left / size)
    words = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {words}" if seconds >= 0 else f"{words} ago"
