"""League texts: standings, history and a match round by round, with every name made safe."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.models import LeaderboardPage, MatchDetail, MatchSummary, Season
from bot.storage.rating import PROVISIONAL_MATCHES
from bot.tables.house_words import stored_line
from bot.tables.names import safe_name, safe_text

ACCENT = 0xF7C600
EDITION_NAMES = {"classic": "Classic", "sonic": "Sonic", "mario": "Super Mario"}
PROVISIONAL_NOTE = (
    f"-# ? provisional: fewer than {PROVISIONAL_MATCHES} rated matches. Everyone starts at 1000."
)
TEXT_LIMIT = 3500  # a V2 message allows 4000 characters of text in all


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` with the word in the form the number needs: "1 round", "2 rounds"."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def rating_text(rating: int, provisional: bool) -> str:
    """A display rating; a trailing ? marks a provisional one (too few rated matches)."""
    return f"{rating}?" if provisional else str(rating)


def when(timestamp: float) -> str:
    return f"<t:{int(timestamp)}:R>"


def duration(seconds: float) -> str:
    minutes = max(0, round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def season_label(season: Season | None) -> str:
    if season is None:
        return "All time"
    return f"Season {season.number}" + (f" · {safe_text(season.name, 50)}" if season.name else "")


def option_label(match: MatchSummary) -> str:
    """A history select option (plain text: Discord shows it as typed)."""
    stamp = datetime.fromtimestamp(match.finished_at, UTC).strftime("%Y-%m-%d %H:%M")
    winners = ", ".join(w.name for w in match.winners) or "no winner"
    edition = EDITION_NAMES.get(match.edition, match.edition)
    return f"#{match.match_id} · {edition} · {stamp} · {winners}"[:100]


def leaderboard_text(page: LeaderboardPage, title: str) -> str:
    """The page as text, for screen readers and search; names escaped."""
    lines = [f"### 🏆 {title}"]
    if not page.rows:
        lines.append("No ranked players yet: finish a match to appear here.")
    for row in page.rows:
        lines.append(
            f"`{row.rank:>3}` **{safe_name(row.name)}** · rating "
            f"{rating_text(row.display_rating, row.provisional)} · "
            f"{row.wins}/{row.matches} wins ({row.win_rate:.0%}) · "
            f"{plural(row.points, 'pt')}"
        )
    if page.total:
        last = page.offset + len(page.rows)
        lines.append(f"-# Players {page.offset + 1}–{last} of {page.total} · sorted by {page.sort}")
        if any(row.provisional for row in page.rows):
            lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines)


def history_text(matches: list[MatchSummary]) -> str:
    """The recent matches, one line each."""
    lines = ["### 📜 Recent matches"]
    if not matches:
        lines.append("No finished matches yet.")
    for m in matches:
        winners = ", ".join(f"**{safe_name(w.name)}**" for w in m.winners) or "nobody"
        lines.append(
            f"`#{m.match_id}` {EDITION_NAMES.get(m.edition, m.edition)} · "
            f"{plural(m.players, 'player')} · {plural(m.rounds, 'round')} · "
            f"won by {winners} · {when(m.finished_at)}\n"
            f"-# {safe_text(stored_line(m.house_rules), 300)}"
        )
    return "\n".join(lines)[:TEXT_LIMIT]


def match_text(detail: MatchDetail) -> str:
    """A match round by round: who went out, points added and running totals."""
    names = {p.seat: safe_name(p.name) for p in detail.players}
    target = f" to {detail.target}" if detail.target else " (single round)"
    lines = [
        f"### Match #{detail.match_id} · {EDITION_NAMES.get(detail.edition, detail.edition)}",
        f"{detail.scoring.title()} scoring{target} · season {detail.season} · "
        f"{duration(detail.duration)} · {when(detail.finished_at)}",
        safe_text(stored_line(detail.house_rules), 300),
    ]
    for p in sorted(detail.players, key=lambda p: (p.place, p.seat)):
        star = "🏆 " if p.winner else ""
        change = ""
        before, after = p.display_before, p.display_after
        if before is not None and after is not None:
            change = f" · rating {before} → {after}"
        lines.append(f"{p.place}. {star}**{names[p.seat]}** · {plural(p.points, 'pt')}{change}")
    lines.append("**Rounds**")
    for r in detail.rounds:
        out = names.get(r.winner_seat, "?") if r.winner_seat is not None else "nobody"
        gains = ", ".join(
            f"{names.get(seat, '?')} +{pts}" for seat, pts in enumerate(r.points) if pts
        )
        totals = " · ".join(f"{names.get(seat, '?')} {t}" for seat, t in enumerate(r.totals))
        lines.append(
            f"{r.number}. {out} went out" + (f" ({gains})" if gains else "") + f" — {totals}"
        )
    text = "\n".join(lines)
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 20].rsplit("\n", 1)[0] + "\n… (more rounds)"
    return text
