"""The server's tournaments in the league's export: each one's entrants, standings, podium and
tables, told from its saved state. A member who asked to be forgotten (no league name any
more) appears as the former player, as in the match records."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from bot.storage import FORMER_PLAYER_ID, FORMER_PLAYER_NAME
from bot.tournament.model import Tournament

log = logging.getLogger(__name__)


def tournament_documents(
    states: Iterable[Mapping[str, Any]], known: set[int]
) -> list[dict[str, Any]]:
    """Each saved tournament as its results; ``known``: the members the league still names."""
    documents = []
    for state in states:
        try:
            t = Tournament.from_dict(state)
        except (KeyError, TypeError, ValueError):
            log.warning("tournament %s left out of the export", state.get("tournament_id"))
            continue
        documents.append(tournament_document(t, state, known))
    return documents


def tournament_document(t: Tournament, state: Mapping[str, Any], known: set[int]) -> dict[str, Any]:
    def user(user_id: int) -> int:
        entrant = t.entrants.get(user_id)
        computer = entrant is not None and entrant.computer is not None
        return user_id if computer or user_id in known else FORMER_PLAYER_ID

    def name(user_id: int) -> str:
        entrant = t.entrants.get(user_id)
        shown = entrant.name if entrant is not None else ""
        return shown if user(user_id) == user_id else FORMER_PLAYER_NAME

    return {
        "tournament_id": t.tournament_id,
        "kind": t.kind.value,
        "channel_id": t.channel_id,
        "host_id": user(t.host_id),
        "opened_at": t.opened_at,
        "ends_at": t.ends_at,
        "finished": bool(state.get("finished", False)),
        "finished_at": state.get("finished_at"),
        "options": dict(t.options),
        "entrants": [
            {"user_id": user(e.user_id), "name": name(e.user_id), "computer": e.computer}
            for e in t.entrants.values()
        ],
        "standings": [
            {
                "rank": s.rank,
                "user_id": user(s.user_id),
                "name": name(s.user_id),
                "points": s.points,
                "games": s.games,
                "wins": s.wins,
            }
            for s in t.standings()
        ],
        "podium": [user(s.user_id) for s in t.podium()],
        "teams": [[user(u) for u in team] for team in t.pairs],  # a team knockout's, as drawn
        # Each table is a recorded match: its match_uid is the table's id.
        "tables": [
            {
                "match_uid": f.table_id,
                "round": f.round,
                "placings": [user(u) for u in f.placings],
                "berserk": sorted(user(u) for u in f.berserk),
                "finished_at": f.finished_at,
            }
            for f in t.finishes
        ],
    }
