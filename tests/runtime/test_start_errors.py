"""A host operator gets one clear line for the start errors they can fix."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.runner import explain_start_error


class _Response:
    status = 401
    reason = "Unauthorized"


def test_known_start_errors_get_one_line() -> None:
    cases: list[BaseException] = [
        discord.LoginFailure("Improper token has been passed."),
        discord.PrivilegedIntentsRequired(0),
        discord.GatewayNotFound(),
        aiohttp.ClientConnectionError("no route"),
        OSError(101, "Network is unreachable"),
    ]
    for error in cases:
        line = explain_start_error(error)
        assert line is not None
        assert "\n" not in line


@pytest.mark.parametrize("error", [ValueError("bug"), KeyError("x"), RuntimeError("boom")])
def test_bugs_are_not_dressed_up(error: BaseException) -> None:
    assert explain_start_error(error) is None
