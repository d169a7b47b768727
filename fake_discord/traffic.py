"""What the bot sent the fake: every REST request and every message write, with counters for
Discord's limits (a channel's 5 writes per 5 s, the bot's requests that are not interaction
responses)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

WRITE_KINDS = ("create", "edit", "delete")
# Routes that answer interactions: Discord does not count them against the bot's limits.
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
# A client may stamp each request with the wall time it left (seconds since the epoch): the
# traffic log then tells the time a request was sent from the time the fake got to it.
SENT_AT_HEADER = "X-Sent-At"
# ...and the seconds it held the request back before sending it (its own pacing).
HELD_HEADER = "X-Held"
# A stamping proxy in front of the fake (fake_discord.wire) adds when the request came off the
# socket: arrival as the network saw it, whatever the fake's own event loop was doing.
WIRE_AT_HEADER = "X-Wire-At"


def trim(records: list[Any], limit: int | None) -> None:
    """Keep about the last `limit` records (trimmed in halves, so appending stays cheap)."""
    if limit is not None and len(records) > 2 * limit:
        del records[: len(records) - limit]


@dataclass
class MessageEvent:
    """One message create/edit/delete, for rate-limit and burst analysis."""

    at: float  # the fake's clock
    kind: str  # "create" | "edit" | "delete"
    channel_id: int
    message_id: int
    via: str  # "channel" (REST channel routes) | "webhook" (interaction token) | "callback"


@dataclass
class RequestRecord:
    """One REST request as the fake received it."""

    at: float  # the fake's clock
    method: str
    path: str  # without the /api/v10 prefix, without the query
    route: str  # the matched route template, e.g. "/channels/{channel_id}/messages"
    channel_id: int | None
    status: int = 0  # filled in when answered
    agent: str = ""  # the User-Agent header: tells apart bot processes sharing the fake
    sent_at: float | None = None  # when the client says it sent it (SENT_AT_HEADER)
    held: float | None = None  # what the client says it held it back (HELD_HEADER)
    wire_at: float | None = None  # when it came off the socket (WIRE_AT_HEADER), if proxied

    @property
    def kind(self) -> str:
        """What a channel request did: create/edit/delete (a message), read, thread, other."""
        if self.route.endswith("/messages"):
            return {"POST": "create", "GET": "read"}.get(self.method, "other")
        if self.route.endswith("/messages/{message_id}"):
            return {"PATCH": "edit", "DELETE": "delete", "GET": "read"}.get(self.method, "other")
        if self.route.endswith("/threads") or self.route.endswith("/threads/"):
            return "thread"
        return "read" if self.method == "GET" else "other"

    @property
    def answers_interaction(self) -> bool:
        return self.route.startswith(INTERACTION_ROUTES)


@dataclass
class Traffic:
    """Recorder and counters of the bot's requests and message writes."""

    now: Callable[[], float]  # the fake's clock, read at each record
    log: list[RequestRecord] = field(default_factory=list)
    message_events: list[MessageEvent] = field(default_factory=list)
    limit: int | None = None  # keep about this many of each (None: all)
    # Every message write ever recorded, by route kind and what it did: ("channel", "edit")...
    write_counts: Counter[tuple[str, str]] = field(default_factory=Counter)

    def record_request(
        self,
        method: str,
        path: str,
        route: str,
        channel_id: int | None,
        agent: str = "",
        sent_at: float | None = None,
        held: float | None = None,
        wire_at: float | None = None,
    ) -> RequestRecord:
        record = RequestRecord(
            self.now(),
            method,
            path,
            route,
            channel_id,
            agent=agent,
            sent_at=sent_at,
            held=held,
            wire_at=wire_at,
        )
        self.log.append(record)
        trim(self.log, self.limit)
        return record

    def record_write(self, kind: str, channel_id: int, message_id: int, via: str) -> None:
        self.message_events.append(MessageEvent(self.now(), kind, channel_id, message_id, via))
        self.write_counts[(via, kind)] += 1
        trim(self.message_events, self.limit)

    def recent_writes(self, channel_id: int, via: str, window: float) -> list[MessageEvent]:
        """Writes to the channel through `via` within the last `window` seconds."""
        now = self.now()
        return [
            e
            for e in self.message_events
            if e.channel_id == channel_id and e.via == via and now - e.at < window
        ]

    def message_bursts(
        self,
        channel_id: int,
        window: float = 5.0,
        via: Iterable[str] | None = None,
        kinds: Iterable[str] = WRITE_KINDS,
    ) -> int:
        """The most message writes (creates, edits and deletes by default) the channel took
        in any `window` seconds. `via` filters by route kind: "channel" (the REST channel
        routes Discord rate-limits per channel), "webhook" (interaction followups and
        original-response edits), "callback" (interaction responses)."""
        routes = set(via) if via is not None else {"channel", "webhook", "callback"}
        wanted = set(kinds)
        times = sorted(
            e.at
            for e in self.message_events
            if e.channel_id == channel_id and e.via in routes and e.kind in wanted
        )
        best = start = 0
        for end, t in enumerate(times):
            while t - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def channel_requests(self, channel_id: int | None = None) -> Counter[str]:
        """REST requests on channel routes by kind ("create", "edit", "delete", "read",
        "thread", "other"), for one channel or all; interaction responses (callbacks and
        interaction webhooks) are not counted, as Discord does not count them either."""
        return Counter(
            r.kind
            for r in self.log
            if r.route.startswith("/channels/")
            and (channel_id is None or r.channel_id == channel_id)
        )

    def bot_requests(self) -> int:
        """REST requests that count against the bot's global limit (all but interaction
        responses)."""
        return sum(1 for r in self.log if not r.answers_interaction)
