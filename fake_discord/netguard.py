"""A network guard: while it is on, sockets may connect to loopback addresses (and local
Unix sockets) only, so nothing driven against the fake can reach the real Discord."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from types import TracebackType
from typing import Any

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})


class NonLoopbackConnection(ConnectionRefusedError):
    """A connection to anything but loopback, refused by the guard."""


def is_loopback_address(address: Any) -> bool:
    """Whether a socket address is on this machine (loopback IP, "localhost", Unix socket)."""
    if not isinstance(address, tuple):
        return True  # AF_UNIX paths and abstract names
    host = str(address[0]).split("%", 1)[0]
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # any other host name


class LoopbackOnly:
    """Context manager (re-entrant) that refuses every non-loopback `socket.connect`.

    asyncio and aiohttp, hence discord.py, connect through `socket.socket.connect`, so a bot
    pointed at the fake fails fast with `NonLoopbackConnection` if anything it does would
    leave the machine."""

    _depth = 0
    _saved: tuple[Callable[..., Any], Callable[..., Any]] | None = None

    def __enter__(self) -> LoopbackOnly:
        cls = type(self)
        if cls._depth == 0:
            cls._saved = (socket.socket.connect, socket.socket.connect_ex)
            connect: Callable[..., Any] = cls._saved[0]
            connect_ex: Callable[..., Any] = cls._saved[1]

            def guarded_connect(sock: socket.socket, address: Any) -> None:
                _refuse_unless_local(address)
                connect(sock, address)

            def guarded_connect_ex(sock: socket.socket, address: Any) -> int:
                _refuse_unless_local(address)
                result: int = connect_ex(sock, address)
                return result

            socket.socket.connect = guarded_connect  # type: ignore[method-assign,assignment]
            socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign,assignment]
        cls._depth += 1
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        cls = type(self)
        cls._depth -= 1
        if cls._depth == 0 and cls._saved is not None:
            socket.socket.connect, socket.socket.connect_ex = cls._saved  # type: ignore[method-assign]
            cls._saved = None

    @classmethod
    def active(cls) -> bool:
        return cls._depth > 0


def _refuse_unless_local(address: Any) -> None:
    if not is_loopback_address(address):
        raise NonLoopbackConnection(f"network guard: connecting to {address!r} is not allowed")


def loopback_only() -> LoopbackOnly:
    """`with loopback_only(): ...` refuses connections that would leave the machine."""
    return LoopbackOnly()
