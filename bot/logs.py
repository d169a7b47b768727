"""Logging set-up: one format, quiet libraries, and no secret in any record at any level."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import TextIO

import discord

# Interaction and webhook tokens travel in gateway payloads ("token": "...") and in REST paths
# (/interactions/<id>/<token>/callback, /webhooks/<app>/<token>/...). Either is a credential to
# answer as the bot for 15 minutes, so both are cut out of every record before it is written.
_PATTERNS = (
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+(['"])"""),
    re.compile(r"(/interactions/\d+/)[^/\s'\"]+"),
    re.compile(r"(/webhooks/\d+/)[^/\s'\"?]+"),
)
REDACTED = "[redacted]"


class RedactSecrets(logging.Filter):
    """Rewrites a record's message without the bot token or any interaction token."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern in _PATTERNS:
            text = pattern.sub(lambda m: m.group(1) + REDACTED + "".join(m.groups()[1:]), text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = self.redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (LOG_FORMAT=json), for log collectors that index fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(
    level: str,
    secrets: Iterable[str] = (),
    stream: TextIO | None = None,
    *,
    json_lines: bool = False,
) -> logging.Handler:
    """Log to ``stream`` (stderr) at ``level`` with every record redacted, as text lines or
    JSON objects; returns the handler."""
    handler = logging.StreamHandler(stream)
    text = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handler.setFormatter(JsonFormatter() if json_lines else text)
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.http logs every request and body at DEBUG: too much even when debugging the bot.
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    # The bot never joins voice: discord.py's warnings about voice libraries are only noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    return handler
