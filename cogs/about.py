"""/uno about: the bot's version, a link to invite it to another server, and the project's page."""

from __future__ import annotations

from importlib import metadata

import discord

DISTRIBUTION = "uno-bot"
# What the bot needs in a channel: see the lobby and table, post pictures, run a game's thread.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
INVITE_SCOPES = ("bot", "applications.commands")
# Project-URL labels to link, best first (pyproject's [project.urls]).
PROJECT_LABELS = ("homepage", "source", "repository")


def version() -> str:
    """The installed package's version (from its metadata, as pip installed it)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def project_url(meta: metadata.PackageMetadata | None = None) -> str | None:
    """The project's page from the package's Project-URL entries, if it names one."""
    if meta is None:
        try:
            meta = metadata.metadata(DISTRIBUTION)
        except metadata.PackageNotFoundError:
            return None
    urls: dict[str, str] = {}
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        urls.setdefault(label.strip().lower(), url.strip())
    for label in PROJECT_LABELS:
        if urls.get(label):
            return urls[label]
    return next(iter(urls.values()), None) or None


def invite_url(application_id: int) -> str:
    """The link that adds this bot to a server with the permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES
    )


def about_text(application_id: int | None, url: str | None) -> str:
    lines = [f"## 🎴 UNO bot {version()}"]
    if application_id is not None:
        lines.append(f"[Invite it to your server]({invite_url(application_id)})")
    if url:
        lines.append(f"Project page: <{url}>")
    lines.append("`/uno help` tells how to play.")
    return "\n".join(lines)
