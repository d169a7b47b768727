"""Discord's limits on what a bot sends, checkable offline: messages (components, nesting,
lengths, media references), modals and application commands.

`check_message`, `check_modal`, `check_command` and `check_commands` take a payload as the bot
would send it and return one line per broken rule, e.g.
`components.0.components.1.label: Must be 80 or fewer in length. (BASE_TYPE_MAX_LENGTH)`,
and an empty list when Discord would accept it. The fake's routes run the same checks and
answer 400 Invalid Form Body (50035).
"""

from fake_discord.validation.commands import (
    check_command,
    check_commands,
    command_errors,
    commands_errors,
)
from fake_discord.validation.components import ATTACHMENT_SCHEME, component_errors
from fake_discord.validation.messages import check_message, message_errors, raise_for_message
from fake_discord.validation.modals import check_modal, modal_errors

__all__ = [
    "ATTACHMENT_SCHEME",
    "check_command",
    "check_commands",
    "check_message",
    "check_modal",
    "command_errors",
    "commands_errors",
    "component_errors",
    "message_errors",
    "modal_errors",
    "raise_for_message",
]
