"""The pure rules engine: cards, rounds, matches, views and computer players."""

from .cards import CODES, COLORS, Edition, card_code, edition_deck, parse_card, parse_color
from .errors import RuleError
from .game import Action, Do, Event, Game, Phase
from .house import OPTIONS, PRESETS, CustomEffect, HouseRules, Stack
from .match import Match, ScoreView
from .rules import RuleSet, Scoring
from .snapshot import HandView, PublicView, SeatView, hand_view, public_view

__all__ = [
    "CODES",
    "COLORS",
    "OPTIONS",
    "PRESETS",
    "Action",
    "CustomEffect",
    "Do",
    "Edition",
    "Event",
    "Game",
    "HandView",
    "HouseRules",
    "Match",
    "Phase",
    "PublicView",
    "RuleError",
    "RuleSet",
    "ScoreView",
    "Scoring",
    "SeatView",
    "Stack",
    "card_code",
    "edition_deck",
    "hand_view",
    "parse_card",
    "parse_color",
    "public_view",
]
