"""The Discord layer: slash commands, message layouts and button handlers."""
