"""The playground: the real bot against the fake Discord on this machine, played in a browser.

`uno-bot playground` (`bot.playground.main`) starts a `Playground`: the fake Discord, a small
world (a server, #uno, two to four local people), UnoBot with a real storage, and a web page
that shows what Discord would show and acts through the fake's user simulation."""

from bot.playground.cli import main
from bot.playground.session import Playground, PlaygroundError

__all__ = ["Playground", "PlaygroundError", "main"]
