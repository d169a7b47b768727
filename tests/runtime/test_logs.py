"""Log records never carry the bot token or an interaction token, at any level."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from bot.logs import REDACTED, RedactSecrets, setup_logging

BOT_TOKEN = "MTIzNDU2Nzg5.secret.bot-token-value"
ITX_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA"


def record(msg: str, *args: object, name: str = "discord.gateway") -> logging.LogRecord:
    return logging.LogRecord(name, logging.DEBUG, __file__, 1, msg, args, None)


def formatted(rec: logging.LogRecord) -> str:
    RedactSecrets([BOT_TOKEN]).filter(rec)
    return rec.getMessage()


def test_gateway_event_payload_loses_the_interaction_token() -> None:
    payload = {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": ITX_TOKEN, "type": 3}}
    text = formatted(record("For Shard ID %s: WebSocket Event: %s", 0, payload))
    assert ITX_TOKEN not in text
    assert f"'token': '{REDACTED}'" in text
    assert "INTERACTION_CREATE" in text


def test_json_style_token_is_redacted_too() -> None:
    text = formatted(record('received {"token": "' + ITX_TOKEN + '", "x": 1}'))
    assert ITX_TOKEN not in text


def test_rest_paths_lose_interaction_and_webhook_tokens() -> None:
    for path in (
        f"/api/v10/interactions/1234/{ITX_TOKEN}/callback",
        f"/api/v10/webhooks/5678/{ITX_TOKEN}/messages/@original",
        f"/api/v10/webhooks/5678/{ITX_TOKEN}?wait=true",
    ):
        text = formatted(record("POST %s has returned 204", path, name="discord.webhook.async_"))
        assert ITX_TOKEN not in text
        assert REDACTED in text


def test_bot_token_is_redacted_anywhere_and_exception_text_too() -> None:
    try:
        raise RuntimeError(f"failed with Authorization: Bot {BOT_TOKEN}")
    except RuntimeError:
        info = sys.exc_info()
    rec = logging.LogRecord("bot", logging.ERROR, __file__, 1, "boom %s", (BOT_TOKEN,), info)
    RedactSecrets([BOT_TOKEN]).filter(rec)
    assert BOT_TOKEN not in rec.getMessage()
    assert rec.exc_text is not None and BOT_TOKEN not in rec.exc_text


def test_plain_records_are_left_alone() -> None:
    rec = record("table %s saved at version %d", "abc", 7, name="bot.tables")
    RedactSecrets([BOT_TOKEN]).filter(rec)
    assert rec.getMessage() == "table abc saved at version 7"


def test_setup_logging_redacts_through_the_root_handler(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG", secrets=[BOT_TOKEN])
        payload = {"d": {"token": ITX_TOKEN}}
        logging.getLogger("discord.gateway").debug("WebSocket Event: %s", payload)
        logging.getLogger("discord.client").info("token is %s", BOT_TOKEN)
        err = capsys.readouterr().err
        assert "WebSocket Event" in err
        assert ITX_TOKEN not in err and BOT_TOKEN not in err
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)


def test_json_logs_are_one_redacted_object_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("INFO", secrets=[BOT_TOKEN], json_lines=True)
        logging.getLogger("bot.client").info("restored %d tables with %s", 3, BOT_TOKEN)
        try:
            raise RuntimeError(f"boom {BOT_TOKEN}")
        except RuntimeError:
            logging.getLogger("bot.tables").exception("could not save table %s", "t1")
        lines = capsys.readouterr().err.splitlines()
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "INFO" and first["logger"] == "bot.client"
    assert first["message"] == f"restored 3 tables with {REDACTED}"
    assert second["message"] == "could not save table t1"
    assert "RuntimeError: boom" in second["exception"] and BOT_TOKEN not in second["exception"]
