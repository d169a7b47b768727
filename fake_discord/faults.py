"""Fault injection: make the next N requests matching a method and a route answer a 429, a
5xx or arrive late, the way Discord sometimes does.

    fake.faults.inject("POST", "/channels/{channel_id}/messages", status=500)
    fake.faults.inject("PATCH", f"/channels/{thread.id}/messages/*", status=429, retry_after=0.2)
    fake.faults.inject("*", "/interactions/*", delay=2.0, times=3)

A route pattern is matched (shell-style `*`) against the route template the fake registered
(`/channels/{channel_id}/messages`) and against the request's path (`/channels/123/messages`),
both without the `/api/v10` prefix. `after_handling=True` lets the request take effect before
the error is answered: the bot sees a failure although the message was created (what makes
discord.py retry a post that Discord already stored)."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field


@dataclass
class Fault:
    """One injected fault and how often it still fires."""

    method: str
    route: str
    status: int | None = None  # None: no error, only the delay
    code: int = 0
    retry_after: float = 1.0  # for 429
    delay: float = 0.0  # seconds, real time, before the request is handled
    times: int = 1
    after_handling: bool = False
    fired: int = 0

    @property
    def remaining(self) -> int:
        return self.times - self.fired

    def matches(self, method: str, route: str, path: str) -> bool:
        if self.method not in ("*", method.upper()):
            return False
        return fnmatch.fnmatchcase(route, self.route) or fnmatch.fnmatchcase(path, self.route)

    def body(self) -> dict[str, object]:
        if self.status == 429:
            return {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": False,
                "code": self.code,
            }
        return {"message": f"{self.status}: injected fault", "code": self.code}


@dataclass
class Faults:
    """The faults waiting for requests; each request takes the first matching one."""

    pending: list[Fault] = field(default_factory=list)
    fired: list[tuple[Fault, str, str]] = field(default_factory=list)  # (fault, method, path)

    def inject(
        self,
        method: str,
        route: str,
        *,
        status: int | None = None,
        code: int = 0,
        retry_after: float = 1.0,
        delay: float = 0.0,
        times: int = 1,
        after_handling: bool = False,
    ) -> Fault:
        """Fault the next `times` requests matching `method` (or "*") and `route`."""
        if status is None and delay <= 0:
            raise ValueError("a fault needs a status, a delay, or both")
        if status is not None and not (status == 429 or status >= 500):
            raise ValueError("inject 429 or 5xx; Discord's 4xx answers come from the fake itself")
        if times < 1:
            raise ValueError("times must be at least 1")
        fault = Fault(
            method.upper(), route, status, code, retry_after, delay, times, after_handling
        )
        self.pending.append(fault)
        return fault

    def take(self, method: str, route: str, path: str) -> Fault | None:
        """The fault this request meets, if any (counted as fired)."""
        for fault in self.pending:
            if fault.matches(method, route, path):
                fault.fired += 1
                if fault.remaining <= 0:
                    self.pending.remove(fault)
                self.fired.append((fault, method, path))
                return fault
        return None

    def clear(self) -> None:
        self.pending.clear()
