"""A stamp at the wire: a small proxy in front of the fake Discord that adds to every HTTP
request the wall time its first bytes came off the socket (header ``X-Wire-At``).

The fake stamps a request when its own event loop gets to it; a fake that drives hundreds of
players in the same process gets there late and stamps many requests together. This proxy does
nothing else, so it reads each request as it arrives, the way Discord's edge would: run in a
process of its own (``python -m fake_discord.wire UPSTREAM_PORT``), it prints its port, serves
until its standard input closes, then prints how late its own loop woke (JSON lines: ``[wall
time, seconds late]``), which bounds the stamps' error.

Requests are parsed only as far as framing needs (headers, ``Content-Length``, chunked bodies);
an upgraded connection (the gateway's websocket) is piped untouched after its headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from enum import Enum, auto
from pathlib import Path

from fake_discord.traffic import WIRE_AT_HEADER

STARTED = 60.0  # seconds for the proxy's process to start or stop, on a busy machine
HEAD_LIMIT = 64 * 1024  # a request head longer than this is not HTTP from discord.py
_END = b"\r\n\r\n"
_LENGTH = re.compile(rb"^content-length:\s*(\d+)\s*$", re.I | re.M)
_CHUNKED = re.compile(rb"^transfer-encoding:.*chunked", re.I | re.M)
_UPGRADE = re.compile(rb"^upgrade:", re.I | re.M)


class _State(Enum):
    HEAD = auto()
    BODY = auto()
    CHUNK_SIZE = auto()
    CHUNK_DATA = auto()
    TRAILER = auto()
    RAW = auto()


class Stamper:
    """The client-to-server byte stream of one connection, with each request's head stamped:
    ``feed(data, now)`` returns the bytes to forward."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._state = _State.HEAD
        self._remaining = 0
        self._first_at: float | None = None  # when the current request's first byte came

    def feed(self, data: bytes, now: float) -> bytes:
        self._buffer += data
        out = bytearray()
        while self._buffer and self._step(out, now):
            pass
        return bytes(out)

    def _step(self, out: bytearray, now: float) -> bool:
        """Move one framing step on; False when more bytes are needed."""
        buffer, state = self._buffer, self._state
        if state is _State.RAW:
            out += buffer
            buffer.clear()
            return False
        if state in (_State.BODY, _State.CHUNK_DATA):
            taken = min(self._remaining, len(buffer))
            out += buffer[:taken]
            del buffer[:taken]
            self._remaining -= taken
            if self._remaining == 0:
                self._state = _State.HEAD if state is _State.BODY else _State.CHUNK_SIZE
            return self._remaining == 0
        if state is _State.HEAD:
            return self._head(out, now)
        end = buffer.find(b"\r\n")  # a chunk's size line, or a trailer line
        if end < 0:
            return False
        line = bytes(buffer[:end])
        out += buffer[: end + 2]
        del buffer[: end + 2]
        if state is _State.TRAILER:
            self._state = _State.HEAD if not line else _State.TRAILER
        else:
            size = int(line.split(b";")[0].strip() or b"0", 16)
            self._state = _State.TRAILER if size == 0 else _State.CHUNK_DATA
            self._remaining = size + 2  # the data and its CRLF
        return True

    def _head(self, out: bytearray, now: float) -> bool:
        if self._first_at is None:
            self._first_at = now
        end = self._buffer.find(_END)
        if end < 0:
            if len(self._buffer) > HEAD_LIMIT:  # not HTTP: pass everything through
                self._state = _State.RAW
                return True
            return False
        head = bytes(self._buffer[:end])
        del self._buffer[: end + len(_END)]
        out += head + f"\r\n{WIRE_AT_HEADER}: {self._first_at!r}".encode() + _END
        self._first_at = None
        if _UPGRADE.search(head):
            self._state = _State.RAW
        elif _CHUNKED.search(head):
            self._state = _State.CHUNK_SIZE
        elif (length := _LENGTH.search(head)) is not None and int(length[1]) > 0:
            self._state, self._remaining = _State.BODY, int(length[1])
        return True


class _Upstream(asyncio.Protocol):
    """The proxy's connection to the fake: what it answers goes back to the client."""

    def __init__(self, client: asyncio.Transport) -> None:
        self.client = client

    def data_received(self, data: bytes) -> None:
        self.client.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.client.close()


class _Client(asyncio.Protocol):
    """One client connection: stamped on arrival, forwarded once the upstream is open."""

    def __init__(self, host: str, port: int, clock: Callable[[], float]) -> None:
        self.address = (host, port)
        self.clock = clock
        self.stamper = Stamper()
        self.upstream: asyncio.Transport | None = None
        self.pending = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        asyncio.get_running_loop().create_task(self._connect(transport))

    async def _connect(self, transport: asyncio.Transport) -> None:
        loop = asyncio.get_running_loop()
        try:
            upstream, _ = await loop.create_connection(lambda: _Upstream(transport), *self.address)
        except OSError:
            transport.close()
            return
        self.upstream = upstream
        if self.pending:
            upstream.write(bytes(self.pending))
            self.pending.clear()
        if transport.is_closing():
            upstream.close()

    def data_received(self, data: bytes) -> None:
        out = self.stamper.feed(data, self.clock())
        if self.upstream is None:
            self.pending += out
        else:
            self.upstream.write(out)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.upstream is not None:
            self.upstream.close()


class WireStamp:
    """The proxy on 127.0.0.1, in front of ``upstream_port``; ``late`` holds how late its loop
    woke, sampled every ``tick`` s while it serves."""

    TICK = 0.02

    def __init__(self, upstream_port: int, *, clock: Callable[[], float] = time.time) -> None:
        self.upstream_port = upstream_port
        self.clock = clock
        self.port = 0
        self.late: list[tuple[float, float]] = []
        self._server: asyncio.Server | None = None
        self._watch: asyncio.Task[None] | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Client("127.0.0.1", self.upstream_port, self.clock), "127.0.0.1", 0
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._watch = loop.create_task(self._watch_loop())

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.TICK)
            self.late.append((time.time(), loop.time() - before - self.TICK))

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        if self._server is not None:
            self._server.close()


class WireProcess:
    """The proxy in a process of its own (``python -m fake_discord.wire``), so that its stamps
    keep time however busy the fake's process is; ``late`` is how late its loop woke, read
    when it stops."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.url = f"http://127.0.0.1:{port}"
        self.late: list[tuple[float, float]] = []

    @classmethod
    async def start(cls, upstream_port: int, *, nice: int = 0) -> WireProcess:
        """In front of ``upstream_port``; ``nice`` added to its niceness (negative: root)."""
        root = Path(__file__).resolve().parents[1]
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fake_discord.wire",
            str(upstream_port),
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            preexec_fn=(lambda: os.nice(nice)) if nice else None,
        )
        assert process.stdout is not None
        port = int(await asyncio.wait_for(process.stdout.readline(), STARTED))
        return cls(process, port)

    async def stop(self) -> None:
        if self.process.returncode is not None:
            return
        assert self.process.stdin is not None
        self.process.stdin.close()
        out, _ = await asyncio.wait_for(self.process.communicate(), STARTED)
        self.late = [(at, late) for at, late in map(json.loads, out.decode().splitlines())]

    def late_between(self, since: float, until: float) -> list[float]:
        return [late for at, late in self.late if since <= at <= until]


async def _serve(upstream_port: int) -> None:
    proxy = WireStamp(upstream_port)
    await proxy.start()
    print(proxy.port, flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the bench closes our stdin
    await proxy.stop()
    for sample in proxy.late:
        print(json.dumps([round(sample[0], 3), round(sample[1], 4)]))


if __name__ == "__main__":
    asyncio.run(_serve(int(sys.argv[1])))
