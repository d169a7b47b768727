"""Rule violations, each with a stable code and a message safe to show players.

The message is an English template (``str.format`` fields filled from ``params``); it is also
the message id a presenter translates into the reader's language, so the engine stays free of
any language but English. A tuple parameter is a list of such texts, told as ``a, b or c``.
"""

from __future__ import annotations

ParamValue = str | int | tuple[str, ...]


class RuleError(Exception):
    """An action the rules reject; the game is unchanged."""

    def __init__(self, code: str, template: str, **params: ParamValue) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.message = template.format_map(
            {k: _english_list(v) if isinstance(v, tuple) else v for k, v in params.items()}
        )
        super().__init__(self.message)


def _english_list(items: tuple[str, ...]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def not_your_turn() -> RuleError:
    return RuleError("not_your_turn", "It is not your turn.")


def not_in_hand() -> RuleError:
    return RuleError("not_in_hand", "You do not hold that card.")


def cannot_play() -> RuleError:
    return RuleError("cannot_play", "That card does not match the color, number or symbol.")


def wrong_card() -> RuleError:
    return RuleError("wrong_card", "After drawing, only the card you just drew may be played.")


def bad_color() -> RuleError:
    return RuleError("bad_color", "Choose a color: red, yellow, green or blue.")


def not_allowed(why: str, **params: ParamValue) -> RuleError:
    return RuleError("not_allowed", why, **params)


def bad_action(why: str, **params: ParamValue) -> RuleError:
    return RuleError("bad_action", why, **params)
