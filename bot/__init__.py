"""uno-bot: a Discord bot that hosts UNO games."""
