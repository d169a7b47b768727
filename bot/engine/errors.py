"""Rule violations, each with a stable code, the reason for it and the reason's parameters.

The engine holds no text for people: ``reason`` is a key whose English text lives in
``bot/i18n/refusals.py`` (the message id a presenter translates into the reader's language).
``code`` is the scenario contract's code. A tuple parameter is a list of keys of the ways to
answer a penalty, told as ``a, b or c``.
"""

from __future__ import annotations

ParamValue = str | int | tuple[str, ...]


class RuleError(Exception):
    """An action the rules reject; the game is unchanged."""

    def __init__(self, code: str, reason: str = "", **params: ParamValue) -> None:
        self.code = code
        self.reason = reason or code
        self.params = params
        super().__init__(code, self.reason)

    def __str__(self) -> str:
        told = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code} ({self.reason}{': ' + told if told else ''})"


def not_your_turn() -> RuleError:
    return RuleError("not_your_turn")


def not_in_hand() -> RuleError:
    return RuleError("not_in_hand")


def cannot_play(reason: str = "") -> RuleError:
    return RuleError("cannot_play", reason)


def wrong_card() -> RuleError:
    return RuleError("wrong_card")


def bad_color() -> RuleError:
    return RuleError("bad_color")


def not_allowed(reason: str, **params: ParamValue) -> RuleError:
    return RuleError("not_allowed", reason, **params)


def bad_action(reason: str, **params: ParamValue) -> RuleError:
    return RuleError("bad_action", reason, **params)
