"""`python -m bot`: the command line in bot.cli (with no command, it runs the bot)."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
