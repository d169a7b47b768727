"""A spectator's private view of a table: what the table message says, never a hand."""

from __future__ import annotations

from typing import Any

from discord import ui

from bot.i18n import Lang
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Status

from .table import COLOR_ACCENT, log_text, scores_text, seats_text, status_line, table_alt


def watch_view(table: TableSnapshot, tongue: Lang) -> ui.LayoutView:
    """The table as everyone sees it, for one spectator: its status, seats, log and scores."""
    _ = tongue.gettext
    view = ui.LayoutView(timeout=None)
    public = table.public
    accent = COLOR_ACCENT.get(public.color or "", 0x2B2D31) if public is not None else 0x2B2D31
    container = ui.Container[Any](accent_colour=accent)
    lines = ["### 👁 " + _("Watching the table")]
    if public is not None:
        lines += [status_line(table, tongue), table_alt(table, tongue), seats_text(table, tongue)]
    if table.status in (Status.FINISHED, Status.CANCELLED):
        lines.append("-# " + _("The game is over: this view no longer changes."))
    container.add_item(ui.TextDisplay("\n".join(line for line in lines if line)))
    if table.log:
        container.add_item(ui.TextDisplay(log_text(table, tongue)))
    if table.scores is not None:
        container.add_item(ui.TextDisplay(scores_text(table, tongue)))
    view.add_item(container)
    return view
