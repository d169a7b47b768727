"""A player's private hand: the picture, one numbered button per card (paged) and the choices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot.engine import Action, Do, HandView, Phase
from bot.engine.cards import CARD_INDEX, COLOR_INDEX, COLORS
from bot.i18n import ENGLISH_LANG, Lang
from bot.i18n.game_words import card_name, color_name, color_title
from bot.tables.commands import ANY_SEAT, ArmUno
from bot.tables.names import safe_name
from bot.tables.notes import note as note_of
from bot.tables.snapshot import HandSnapshot, Reveal, TableSnapshot

from .ids import PickColor, PickTarget, TurnPage, target_choice
from .items import button, select
from .table import COLOR_ACCENT, COLOR_EMOJI, alt_text, one_of

PAGE_SIZE = 20  # 4 rows of 5: with the controls the message stays under 40 components
HAND_IMAGE = "hand.png"


def label(code: str, tongue: Lang = ENGLISH_LANG) -> str:
    return card_name(code, tongue)


def emoji(code: str) -> str:
    return COLOR_EMOJI.get(code.split("-", 1)[0], "🌈")


def pages_of(hand: HandSnapshot) -> int:
    return max(1, (len(hand.view.cards) + PAGE_SIZE - 1) // PAGE_SIZE)


def answer_text(view: HandView, tongue: Lang = ENGLISH_LANG) -> str:
    """What the target of a pending penalty sees: the total and every answer open to them."""
    keys = ["answer.accept"] if view.can_accept else []
    if view.can_stack:
        keys.append("answer.stack")
    if view.can_challenge:
        keys.append("answer.challenge")
    if view.can_bounce:
        keys.append("answer.bounce")
    answers = one_of(keys, tongue) if keys else ""
    answers = answers[:1].upper() + answers[1:]
    pending = label(view.pending, tongue) if view.pending else "?"
    return note_of("penalty_on_you", count=view.penalty or 0, card=pending, answers=answers).render(
        tongue
    )


def asks_text(view: HandView, tongue: Lang = ENGLISH_LANG) -> str:
    """What the game asks of this hand now (or what it may do out of turn)."""
    _ = tongue.gettext
    if view.awaiting is Phase.TURN:
        if not view.can_draw:
            return _("**Your turn:** play a card.") + " " + note_of("must_play_hint").render(tongue)
        return _("**Your turn:** play a card or draw.")
    if view.awaiting is Phase.DRAWN and view.drawn:
        drawn = label(view.drawn, tongue)
        if not view.can_pass:
            return (
                _("**You drew {card}**: play it.").format(card=drawn)
                + " "
                + note_of("must_play_drawn").render(tongue)
            )
        return _("**You drew {card}**: play it or keep it.").format(card=drawn)
    if view.awaiting is Phase.COLOR:
        return _("**Choose the color** of the first card.")
    if view.awaiting is Phase.RESPOND:
        return answer_text(view, tongue)
    if any(view.jump_in):
        card = view.cards[view.jump_in.index(True)]
        return note_of("jump_in_yours", card=label(card, tongue)).render(tongue)
    return _("Waiting for the others.")


def target_row(
    table_id: str,
    version: int,
    view: HandView,
    aiming: PickTarget,
    names: Sequence[str],
    tongue: Lang = ENGLISH_LANG,
) -> ui.ActionRow[Any]:
    """The select of the players a card may swap hands with, by name and card count."""
    options = [
        discord.SelectOption(
            label=note_of(
                "swap_target",
                name=names[seat]
                if seat < len(names)
                else tongue.gettext("Player {n}").format(n=seat + 1),
                count=view.other_counts[seat] if seat < len(view.other_counts) else 0,
            ).render(tongue)[:100],
            value=str(seat),
        )
        for seat in view.targets
    ]
    choice = target_choice(aiming.index, aiming.card, aiming.color)
    placeholder = note_of("swap_with").render(tongue)
    return ui.ActionRow[Any](select(table_id, version, choice, options, placeholder=placeholder))


def hand_layout(
    table_id: str,
    version: int,
    hand: HandSnapshot,
    *,
    page: int = 0,
    picking: PickColor | None = None,
    aiming: PickTarget | None = None,
    names: Sequence[str] = (),
    note: str | None = None,
    image: str | None = HAND_IMAGE,
    tongue: Lang = ENGLISH_LANG,
) -> ui.LayoutView:
    """The hand message at ``version``; ``picking`` is a wild card waiting for its color,
    ``aiming`` a card waiting for whom it swaps hands with (``names``: the seats' names)."""
    _ = tongue.gettext
    view = hand.view
    layout = ui.LayoutView(timeout=None)
    t, v = table_id, version
    pages = pages_of(hand)
    page = min(max(page, 0), pages - 1)
    top = f"{emoji(view.top)} {label(view.top, tongue)}" if view.top else _("none")
    color = (
        f"{COLOR_EMOJI[view.color]} {color_name(view.color, tongue)}"
        if view.color
        else _("to be chosen")
    )
    asks = asks_text(view, tongue)
    count = len(view.cards)
    head = "### " + tongue.ngettext(
        "Your hand · {count} card", "Your hand · {count} cards", count
    ).format(count=count)
    if pages > 1:
        first = page * PAGE_SIZE + 1
        last = min(len(view.cards), first + PAGE_SIZE - 1)
        head += " · " + _("page {page} of {pages} (cards {first}–{last})").format(
            page=page + 1, pages=pages, first=first, last=last
        )
    text = [head, _("Top: {top} · Color: {color}").format(top=top, color=color), asks]
    if hand.uno_armed:
        text.append("✅ " + _("You will call **UNO!** with your next card."))
    if note:
        text.append(f"-# {note}")
    container = ui.Container[Any](accent_colour=COLOR_ACCENT.get(view.color or "", 0x2B2D31))
    container.add_item(ui.TextDisplay("\n".join(line for line in text if line)))
    if image is not None:
        alt = hand_alt(view, tongue)
        item = discord.MediaGalleryItem(f"attachment://{image}", description=alt)
        container.add_item(ui.MediaGallery(item))
    layout.add_item(container)

    # While a color or a target is chosen the cards stay in sight: the choice comes under them.
    if aiming is not None and view.targets:
        card_rows(layout, t, v, view, page, tongue=tongue)
        layout.add_item(target_row(t, v, view, aiming, names, tongue))
        layout.add_item(ui.ActionRow[Any](button(t, v, TurnPage(page), label=_("Back"))))
        return layout
    if picking is not None:
        card_rows(layout, t, v, view, page, picked=picking.index, tongue=tongue)
        card = CARD_INDEX[picking.card]
        swaps = _needs_target(view, picking.index)
        row = ui.ActionRow[Any]()
        for name in COLORS:
            color_index = COLOR_INDEX[name]
            choose = (
                PickTarget(picking.index, picking.card, color_index)
                if swaps
                else Action(ANY_SEAT, Do.PLAY, card, color_index)
            )
            row.add_item(
                button(
                    t,
                    v,
                    choose,
                    label=color_title(name, tongue),
                    emoji=COLOR_EMOJI[name],
                    slot=picking.index,
                )
            )
        row.add_item(button(t, v, TurnPage(page), label=_("Back")))
        layout.add_item(row)
        return layout
    if view.awaiting is Phase.COLOR:
        row = ui.ActionRow[Any]()
        for name in COLORS:
            choose = Action(ANY_SEAT, Do.CHOOSE_COLOR, color=COLOR_INDEX[name])
            label_ = color_title(name, tongue)
            row.add_item(button(t, v, choose, label=label_, emoji=COLOR_EMOJI[name]))
        layout.add_item(row)
        return layout

    card_rows(layout, t, v, view, page, tongue=tongue)
    controls = ui.ActionRow[Any]()
    if view.awaiting is Phase.TURN:
        draw = Action(ANY_SEAT, Do.DRAW)
        controls.add_item(
            button(
                t,
                v,
                draw,
                label=_("Draw"),
                style=discord.ButtonStyle.primary,
                disabled=not view.can_draw,
            )
        )
    elif view.awaiting is Phase.DRAWN:
        keep = Action(ANY_SEAT, Do.PASS)
        controls.add_item(button(t, v, keep, label=_("Keep it"), disabled=not view.can_pass))
    elif view.awaiting is Phase.RESPOND:
        accept = Action(ANY_SEAT, Do.ACCEPT)
        total = _("Accept +{count}").format(count=view.penalty) if view.penalty else _("Accept")
        controls.add_item(
            button(
                t,
                v,
                accept,
                label=total,
                style=discord.ButtonStyle.primary,
                disabled=not view.can_accept,
            )
        )
        if view.can_challenge:
            challenge = Action(ANY_SEAT, Do.CHALLENGE)
            controls.add_item(button(t, v, challenge, label=_("Challenge")))
    jumping = any(view.jump_in)
    two_on_turn = len(view.cards) == 2 and (view.awaiting in (Phase.TURN, Phase.DRAWN) or jumping)
    if view.can_call_uno or two_on_turn:
        controls.add_item(
            button(
                t,
                v,
                ArmUno() if two_on_turn else Action(ANY_SEAT, Do.CALL_UNO),
                label="UNO! ✓" if hand.uno_armed else "UNO!",
                style=discord.ButtonStyle.danger,
            )
        )
    if pages > 1:
        back, ahead = TurnPage(max(0, page - 1)), TurnPage(page + 1)
        controls.add_item(button(t, v, back, label="◀", disabled=page == 0))
        controls.add_item(button(t, v, ahead, label="▶", disabled=page >= pages - 1))
    if not controls.children:
        controls.add_item(button(t, v, TurnPage(page), label=_("Refresh")))
    layout.add_item(controls)
    return layout


def hand_alt(view: HandView, tongue: Lang = ENGLISH_LANG) -> str:
    """The hand picture described: every card, in the order of the buttons."""
    cards = ", ".join(label(code, tongue) for code in view.cards) or tongue.gettext("no cards")
    count = len(view.cards)
    text = tongue.ngettext(
        "Your hand, {count} card: {cards}.", "Your hand, {count} cards: {cards}.", count
    )
    return alt_text(text.format(count=count, cards=cards))


def card_rows(
    layout: ui.LayoutView,
    t: str,
    v: int,
    view: HandView,
    page: int,
    *,
    picked: int | None = None,
    tongue: Lang = ENGLISH_LANG,
) -> None:
    """The page's cards, five to a row (``picked``: the wild waiting for its color)."""
    start = page * PAGE_SIZE
    shown = list(enumerate(view.cards))[start : start + PAGE_SIZE]
    aims = view.needs_target if any(view.needs_target) else ()
    for offset in range(0, len(shown), 5):
        row = ui.ActionRow[Any]()
        for index, code in shown[offset : offset + 5]:
            playable = view.playable[index]
            wild = code.startswith("wild")
            request: PickColor | PickTarget | Action
            if wild:
                request = PickColor(index, code)
            elif aims and aims[index]:
                request = PickTarget(index, code)
            else:
                request = Action(ANY_SEAT, Do.PLAY, CARD_INDEX[code])
            row.add_item(
                button(
                    t,
                    v,
                    request,
                    label=f"{index + 1} · {label(code, tongue)}",
                    emoji=emoji(code),
                    style=discord.ButtonStyle.primary
                    if index == picked
                    else discord.ButtonStyle.success
                    if playable
                    else discord.ButtonStyle.secondary,
                    disabled=not playable,
                    slot=index,
                )
            )
        layout.add_item(row)


def _needs_target(view: HandView, index: int) -> bool:
    return index < len(view.needs_target) and view.needs_target[index]


def reveal_text(table: TableSnapshot, reveal: Reveal, tongue: Lang = ENGLISH_LANG) -> str:
    """The challenged hand, shown to the challenger alone."""
    _ = tongue.gettext
    names = ", ".join(label(code, tongue) for code in reveal.cards) or _("no cards")
    who = safe_name(table.seats[reveal.seat].name)
    text = _("**{name}'s hand** when they played the Wild Draw Four: {cards}")
    return "🔍 " + text.format(name=who, cards=names)
