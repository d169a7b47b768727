"""A finished match as the league records it: the one place results leave the table."""

from __future__ import annotations

from bot.storage import MatchPlayer, MatchRecord

from .table import Table


def match_record(table: Table, finished_at: float) -> MatchRecord:
    """Places (ties share one), points, rounds and events of the table's finished match."""
    match = table.match
    assert match is not None
    totals = match.totals
    lowest = table.rules.scoring.value == "lowest"
    order = sorted(
        range(len(table.seats)),
        key=lambda s: (
            s not in match.winners,
            not match.active[s],
            totals[s] if lowest else -totals[s],
        ),
    )
    places: dict[int, int] = {}
    previous: tuple[bool, bool, int] | None = None
    for rank, seat in enumerate(order, start=1):
        key = (seat not in match.winners, not match.active[seat], totals[seat])
        places[seat] = places[order[rank - 2]] if key == previous else rank
        previous = key
    events = [*match.dealer_events, *match.game.events]
    return MatchRecord(
        match_uid=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.game_channel_id,
        edition=table.rules.edition.value,
        scoring=table.rules.scoring.value,
        target=table.rules.target,
        started_at=table.started_at or table.created_at,
        finished_at=finished_at,
        rounds=[list(r) for r in match.rounds],
        events=events,
        players=[
            MatchPlayer(
                user_id=seat.user_id,
                name=seat.name,
                seat=index,
                points=totals[index],
                place=places[index],
                computer=seat.computer is not None,
            )
            for index, seat in enumerate(table.seats)
        ],
        winners=[table.seats[s].user_id for s in match.winners],
        round_winners=list(match.round_winners),
        house_rules=table.rules.house.to_dict(),  # only the options that differ: {} is official
        round_records=list(match.records),
    )
