"""Rule violations, each with a stable code and a message safe to show players."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules reject; the game is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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


def not_allowed(why: str) -> RuleError:
    return RuleError("not_allowed", why)


def bad_action(why: str) -> RuleError:
    return RuleError("bad_action", why)
