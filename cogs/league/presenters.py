"""League texts: standings, history and a match round by round, with every name made safe, in
the language asked for (numbers in its conventions)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import ENGLISH_LANG, N_, Lang
from bot.i18n.game_words import edition_short
from bot.storage.models import LeaderboardPage, MatchDetail, MatchSummary, PlayerResult, Season
from bot.storage.rating import PROVISIONAL_MATCHES
from bot.tables.house_words import stored_line
from bot.tables.names import safe_name, safe_text
from bot.tables.teams import team_mark
from cogs.ui.lobby import team_name

from .former import A_FORMER_PLAYER, sentence_start, stored_names

ACCENT = 0xF7C600
PROVISIONAL_NOTE = N_("? provisional: fewer than {count} rated matches. Everyone starts at 1000.")
TEXT_LIMIT = 3500  # a V2 message allows 4000 characters of text in all


def points(count: int, tongue: Lang = ENGLISH_LANG) -> str:
    """A number of points with the word the number needs ("1 pt", "2 pts")."""
    return tongue.ngettext("{count} pt", "{count} pts", count).format(count=count)


def rating_text(rating: int, provisional: bool) -> str:
    """A display rating; a trailing ? marks a provisional one (too few rated matches)."""
    return f"{rating}?" if provisional else str(rating)


def provisional_note(tongue: Lang = ENGLISH_LANG) -> str:
    """What the ? after a rating means."""
    return "-# " + tongue.gettext(PROVISIONAL_NOTE).format(count=PROVISIONAL_MATCHES)


def when(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:R>"


def duration(seconds: float, tongue: Lang = ENGLISH_LANG) -> str:
    minutes = max(0, round(seconds / 60))
    if minutes >= 60:
        return tongue.gettext("{hours} h {minutes} min").format(
            hours=minutes // 60, minutes=minutes % 60
        )
    return tongue.gettext("{minutes} min").format(minutes=minutes)


def season_label(season: Season | None, tongue: Lang = ENGLISH_LANG) -> str:
    if season is None:
        return tongue.gettext("All time")
    label = tongue.gettext("Season {number}").format(number=season.number)
    return label + (f" · {safe_text(season.name, 50)}" if season.name else "")


def sort_name(sort: str, tongue: Lang = ENGLISH_LANG) -> str:
    """What a leaderboard is sorted by, as a word (``rating``, ``wins``, ``points``)."""
    words = {
        "rating": tongue.gettext("rating"),
        "wins": tongue.gettext("wins"),
        "points": tongue.gettext("points"),
    }
    return words.get(sort, sort)


def team_badge(player: PlayerResult) -> str:
    """A seat's team mark and a space in a team match, else nothing."""
    return f"{team_mark(player.team)} " if player.team is not None else ""


def option_label(match: MatchSummary, tongue: Lang = ENGLISH_LANG) -> str:
    """A history select option (plain text: Discord shows it as typed)."""
    stamp = datetime.fromtimestamp(match.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
    named = ", ".join(w.name for w in match.winners)
    winners = (team_badge(match.winners[0]) if match.winners else "") + named
    winners = winners or tongue.gettext("no winner")
    edition = edition_short(match.edition, tongue)
    return f"#{match.match_id} · {edition} · {stamp} · {winners}"[:100]


def leaderboard_text(page: LeaderboardPage, title: str, tongue: Lang = ENGLISH_LANG) -> str:
    """The page as text, for screen readers and search; names escaped."""
    _ = tongue.gettext
    lines = [f"### 🏆 {title}"]
    if not page.rows:
        lines.append(_("No ranked players yet: finish a match to appear here."))
    for row in page.rows:
        stats = _("rating {rating} · {wins}/{matches} wins ({rate}) · {points}").format(
            rating=rating_text(row.display_rating, row.provisional),
            wins=row.wins,
            matches=row.matches,
            rate=tongue.percent(row.win_rate),
            points=points(row.points, tongue),
        )
        lines.append(f"`{row.rank:>3}` **{safe_name(row.name)}** · {stats}")
    if page.total:
        last = page.offset + len(page.rows)
        lines.append(
            "-# "
            + _("Players {first}–{last} of {total} · sorted by {sort}").format(
                first=page.offset + 1,
                last=last,
                total=page.total,
                sort=sort_name(page.sort, tongue),
            )
        )
        if any(row.provisional for row in page.rows):
            lines.append(provisional_note(tongue))
    return "\n".join(lines)


def history_text(matches: list[MatchSummary], tongue: Lang = ENGLISH_LANG) -> str:
    """The recent matches, one line each."""
    _ = tongue.gettext
    lines = ["### 📜 " + _("Recent matches")]
    if not matches:
        lines.append(_("No finished matches yet."))
    for m in matches:
        told = stored_names(m.winners, tongue).told
        winners = ", ".join(
            f"{team_badge(w)}**{safe_name(name)}**" for w, name in zip(m.winners, told, strict=True)
        )
        winners = winners or _("nobody")
        players = tongue.ngettext("{count} player", "{count} players", m.players).format(
            count=m.players
        )
        if m.teams:
            players += " · " + tongue.ngettext("{count} team", "{count} teams", m.teams).format(
                count=m.teams
            )
        rounds = tongue.ngettext("{count} round", "{count} rounds", m.rounds).format(count=m.rounds)
        won = _("won by {winners}").format(winners=winners)
        cup = "🏆 " + _("tournament") + " · " if m.tournament_id is not None else ""
        lines.append(
            f"`#{m.match_id}` {cup}{edition_short(m.edition, tongue)} · {players} · "
            f"{rounds} · {won} · {when(m.finished_at)}\n"
            f"-# {safe_text(stored_line(m.house_rules, tongue), 300)}"
        )
    return "\n".join(lines)[:TEXT_LIMIT]


def match_text(detail: MatchDetail, tongue: Lang = ENGLISH_LANG) -> str:
    """A match round by round: who went out, points added and running totals."""
    _ = tongue.gettext
    seats = [p.seat for p in detail.players]
    stored = stored_names(detail.players, tongue)
    names = {seat: safe_name(name) for seat, name in zip(seats, stored.labels, strict=True)}
    told = {seat: safe_name(name) for seat, name in zip(seats, stored.told, strict=True)}
    if detail.target:
        target = " " + _("to {target}").format(target=detail.target)
    else:
        target = " " + _("(single round)")
    scoring = _("Lowest scoring") if detail.scoring == "lowest" else _("Standard scoring")
    season = _("season {number}").format(number=detail.season)
    lines = [
        "### "
        + _("Match #{number} · {edition}").format(
            number=detail.match_id, edition=edition_short(detail.edition, tongue)
        ),
        f"{scoring}{target} · {season} · "
        f"{duration(detail.duration, tongue)} · {when(detail.finished_at)}",
        safe_text(stored_line(detail.house_rules, tongue), 300),
    ]
    if detail.teams:
        lines.append(team_lines(detail, tongue))
    for p in sorted(detail.players, key=lambda p: (p.place, p.seat)):
        star = "🏆 " if p.winner else ""
        change = ""
        before, after = p.display_before, p.display_after
        if before is not None and after is not None:
            change = " · " + _("rating {before} → {after}").format(before=before, after=after)
        lines.append(
            f"{p.place}. {star}{team_badge(p)}**{names[p.seat]}** · "
            f"{points(p.points, tongue)}{change}"
        )
    lines.append("**" + _("Rounds") + "**")
    told_former = safe_name(_(A_FORMER_PLAYER))
    for r in detail.rounds:
        out = told.get(r.winner_seat, "?") if r.winner_seat is not None else _("nobody")
        gains = ", ".join(
            f"{names.get(seat, '?')} +{pts}" for seat, pts in enumerate(r.points) if pts
        )
        totals = " · ".join(f"{names.get(seat, '?')} {t}" for seat, t in enumerate(r.totals))
        went = sentence_start(_("{player} went out").format(player=out), told_former)
        lines.append(f"{r.number}. {went}" + (f" ({gains})" if gains else "") + f" — {totals}")
    text = "\n".join(lines)
    if len(text) > TEXT_LIMIT:
        more = _("… (more rounds)")
        text = text[: TEXT_LIMIT - 20 - len(more)].rsplit("\n", 1)[0] + "\n" + more
    return text


def team_lines(detail: MatchDetail, tongue: Lang = ENGLISH_LANG) -> str:
    """Each team of a team match with its players and points, the winning team first."""
    _ = tongue.gettext
    teams: dict[int, list[PlayerResult]] = {}
    for p in detail.players:
        if p.team is not None:
            teams.setdefault(p.team, []).append(p)
    order = sorted(teams, key=lambda t: (min(p.place for p in teams[t]), t))
    lines = []
    for team in order:
        members = ", ".join(safe_name(name) for name in stored_names(teams[team], tongue).labels)
        total = points(sum(p.points for p in teams[team]), tongue)
        star = "🏆 " if any(p.winner for p in teams[team]) else ""
        lines.append(f"{star}{team_name(team, tongue)} ({members}) · {total}")
    return "\n".join(lines)
