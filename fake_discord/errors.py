"""Discord-style errors: the HTTP error a route raises, the record a test reads, and the nested
Invalid Form Body tree that validation fills."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fake_discord.constants import JSON

# Where an error sits in a payload: ["components", 0, "label"].
FormPath = list[str | int]


class DiscordHTTPError(Exception):
    """Raised inside route handlers; turned into a Discord-style JSON error response."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: JSON | None = None,
        *,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code, **self.extra}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass
class RecordedError:
    """A REST call the fake rejected (validation error, unknown route, late ack, ...)."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: JSON | None
    at: float

    def __str__(self) -> str:
        detail = f" {json.dumps(self.errors)}" if self.errors else ""
        return f"{self.method} {self.path} -> {self.status} {self.code} {self.message}{detail}"

    @property
    def details(self) -> list[str]:
        """Each Invalid Form Body error as one line (`components.0.label: ... (CODE)`)."""
        return error_lines(self.errors) if self.errors else []


class FormErrors:
    """Collects Invalid Form Body errors in Discord's nested `{"a": {"0": {"_errors": []}}}`."""

    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_len(self, path: Sequence[str | int], value: Any, limit: int, minimum: int = 0) -> None:
        if value is None:
            return
        length = len(value)
        if length > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        elif length < minimum:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length.")

    def messages(self) -> list[str]:
        """Every error as one line: `components.0.label: Must be 80 or fewer... (CODE)`."""
        return error_lines(self.tree)

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body", self.tree)


def error_lines(tree: JSON) -> list[str]:
    """An Invalid Form Body tree as lines: `components.0.label: Must be ... (CODE)`."""
    return [f"{path or '<body>'}: {msg} ({code})" for path, code, msg in _flatten(tree)]


def _flatten(node: JSON, prefix: str = "") -> Iterator[tuple[str, str, str]]:
    for key, value in node.items():
        if key == "_errors":
            for error in value:
                yield prefix, error["code"], error["message"]
        else:
            yield from _flatten(value, f"{prefix}.{key}" if prefix else key)
