"""A round's recap: an animated WebP, one frame per card played, the scores at the end.

Frames are the table pictures render_table draws (shrunk), then the scoreboard; the picture
stays inside Discord's attachment limit by lowering the quality, then dropping every other
play, until it fits. A play changes little of the table, so every frame after the first is
stored as its change from the one before (no key frames): a quarter fewer bytes and about
half the encoding time of libwebp's default, which also tries each frame as a key frame.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.engine.match import ScoreView
from bot.engine.snapshot import PublicView

from .scores import scores_image
from .table import TABLE_SIZE, table_image
from .words import ENGLISH, Words

RECAP_SCALE = 0.6
RECAP_SIZE = (round(TABLE_SIZE[0] * RECAP_SCALE), round(TABLE_SIZE[1] * RECAP_SCALE))
FRAME_MS = 650
FIRST_MS = 1500  # the deal
LAST_PLAY_MS = 1500
SCORES_MS = 4000
MAX_BYTES = 8 * 1024 * 1024  # Discord takes 10 MiB from a bot; room for the message itself
QUALITIES = (60, 45, 30)
BACKDROP = (18, 19, 24)


def _table_frame(view: PublicView, words: Words) -> Image.Image:
    table, _ = table_image(view, words)
    if table.mode != "RGB":
        table = table.convert("RGB")
    # A box filter averages the pixels each one covers: at 60 % as sharp to the eye as
    # Lanczos, for a third of its time (the scoreboard, one frame of small text, keeps it).
    return table.resize(RECAP_SIZE, Image.Resampling.BOX)


def _scores_frame(scores: ScoreView, words: Words) -> Image.Image:
    """The scoreboard fitted into a frame of the recap's size."""
    board = scores_image(scores, words).convert("RGB")
    scale = min(RECAP_SIZE[0] / board.width, RECAP_SIZE[1] / board.height)
    size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
    frame = Image.new("RGB", RECAP_SIZE, BACKDROP)
    x, y = (RECAP_SIZE[0] - size[0]) // 2, (RECAP_SIZE[1] - size[1]) // 2
    frame.paste(board.resize(size, Image.Resampling.LANCZOS), (x, y))
    return frame


def recap_frames(
    views: Sequence[PublicView], scores: ScoreView | None, words: Words = ENGLISH
) -> tuple[list[Image.Image], list[int]]:
    """The frames and their durations (ms): the deal, each play, the scores."""
    frames = [_table_frame(view, words) for view in views]
    durations = [FRAME_MS] * len(frames)
    if durations:
        durations[0] = FIRST_MS
        durations[-1] = LAST_PLAY_MS
    if scores is not None:
        frames.append(_scores_frame(scores, words))
        durations.append(SCORES_MS)
    return frames, durations


def encode_recap(frames: list[Image.Image], durations: list[int], quality: int) -> bytes:
    """Frames as an animated WebP that loops."""
    out = io.BytesIO()
    frames[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        quality=quality,
        method=2,  # half the time of the default 4 for a few percent more bytes
        kmin=0,
        kmax=0,  # no key frames after the first: each frame is what changed
    )
    return out.getvalue()


def render_recap(
    views: Sequence[PublicView],
    scores: ScoreView | None,
    *,
    words: Words = ENGLISH,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """The recap as animated WebP bytes, at most ``max_bytes``."""
    frames, durations = recap_frames(views, scores, words)
    if not frames:
        raise ValueError("a recap needs at least one frame")
    while True:
        for quality in QUALITIES:
            data = encode_recap(frames, durations, quality)
            if len(data) <= max_bytes:
                return data
        if len(frames) <= 3:
            return data
        # Too big even at the lowest quality: keep the deal, every other play, the end.
        keep = [0, *range(1, len(frames) - 2, 2), len(frames) - 2, len(frames) - 1]
        frames = [frames[i] for i in sorted(set(keep))]
        durations = [
            durations[i] * (2 if 0 < i < len(durations) - 2 else 1) for i in sorted(set(keep))
        ]
