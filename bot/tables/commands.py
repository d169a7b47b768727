"""What a person can ask of a table, as typed commands: the engine's Action or a table command.

The Discord layer decodes a button once into one of these; the manager receives them as they
are and never parses text. An engine ``Action`` from a click carries ``ANY_SEAT``: the manager
fills in the clicker's seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Action

ANY_SEAT = -1  # an Action's seat before the manager knows whose click it was


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks: a Discord user, their display name, and whether they may manage the server."""

    user_id: int
    name: str = ""
    manager: bool = False


# ----- the lobby -----


@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat in the lobby."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the lobby, or a running game (the cards go back into the draw pile)."""


@dataclass(frozen=True, slots=True)
class AddComputer:
    """The host adds a computer player of this level."""

    level: str


@dataclass(frozen=True, slots=True)
class CheckHouseRule:
    """May this person write the Wild Customizable's rule now (the form opens only then)."""


@dataclass(frozen=True, slots=True)
class SetHouseRule:
    """The host writes (or clears) the rule the Wild Customizable card announces."""

    text: str


@dataclass(frozen=True, slots=True)
class CheckHouseRules:
    """May this person choose the house rules now (the panel opens only then)."""


@dataclass(frozen=True, slots=True)
class ChoosePreset:
    """The host picks a preset of house rules (official, party, chill)."""

    name: str


@dataclass(frozen=True, slots=True)
class SetHouseOption:
    """The host sets one house-rule option (checked as ``HouseRules.with_option`` checks it)."""

    name: str
    value: bool | int | str


@dataclass(frozen=True, slots=True)
class SetTeams:
    """The host sets the number of teams (0: every player for themselves)."""

    count: int


@dataclass(frozen=True, slots=True)
class SetPartnersSee:
    """The host lets partners see each other's hands (or not)."""

    on: bool


@dataclass(frozen=True, slots=True)
class ChooseTeam:
    """A player in the lobby picks a team (None: any, the bot seats them)."""

    team: int | None


@dataclass(frozen=True, slots=True)
class ShowPartners:
    """Nothing changes: a player's partners' hands, when the table lets partners see them."""


@dataclass(frozen=True, slots=True)
class CheckStart:
    """May this person start the game now (asked before opening the game's thread)."""


@dataclass(frozen=True, slots=True)
class Start:
    """The host deals the first round; the game runs in ``thread_id`` when there is one."""

    thread_id: int | None = None


@dataclass(frozen=True, slots=True)
class Cancel:
    """The host closes the lobby."""


# ----- the game -----


@dataclass(frozen=True, slots=True)
class ArmUno:
    """With two cards on one's turn: call UNO with the next card (pressed again: withdraw)."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round after the scoreboard."""


@dataclass(frozen=True, slots=True)
class Kick:
    """The host removes a player."""

    user_id: int


@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game early (the host, or someone who manages the server)."""


@dataclass(frozen=True, slots=True)
class ShowHand:
    """Nothing changes: the table and the asker's hand as they stand."""


@dataclass(frozen=True, slots=True)
class Look:
    """Nothing changes: the table as it stands, for anyone."""


TableCommand = (
    Join
    | Leave
    | AddComputer
    | CheckHouseRule
    | SetHouseRule
    | CheckHouseRules
    | ChoosePreset
    | SetHouseOption
    | SetTeams
    | SetPartnersSee
    | ChooseTeam
    | ShowPartners
    | CheckStart
    | Start
    | Cancel
    | ArmUno
    | NextRound
    | Kick
    | EndGame
    | ShowHand
    | Look
)
Command = Action | TableCommand
