"""Every quick benchmark still runs against the code as it is and prints its JSON (no figure is
judged here: speed belongs to the benchmarks themselves)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A benchmark, its smallest arguments, and keys its JSON must carry.
QUICK = [
    ("engine.py", ["--games", "3", "--repeats", "1", "--no-rlcard"], ["rlcard"]),
    ("latency.py", ["--clicks", "3"], ["game_click_ack", "game_click_to_hand_redrawn"]),
    ("latency.py", ["--clicks", "3", "--locale", "de"], ["game_click_to_table_refresh"]),
    ("tables.py", ["--games", "1"], ["act_us_per_click"]),
    ("storage.py", ["--matches", "50", "--calls", "5", "--rounds", "1", "--events", "10"], []),
    (
        "storage.py",
        ["--table-saves", "1", "--no-postgres"],
        ["state_bytes", "sqlite_save_table_ms"],
    ),
    ("ai.py", ["--rounds", "2", "--hard-rounds", "1", "--jobs", "1", "--levels", "easy"], []),
    (
        "ai_arena.py",
        ["--deals", "2", "--levels", "easy,normal", "--against", "bluffer", "--match", "1"],
        ["runs", "par"],
    ),
    (
        "ai_arena.py",
        [
            *("--deals", "1", "--levels", "hard", "--against", "honest", "--match", "1"),
            *("--hard-rollouts", "8", "--hard-budget", "100", "--peek", "hands"),
        ],
        ["runs", "peek"],
    ),
    ("render.py", ["--runs", "2", "--reps", "1", "--edition", "classic"], []),
    # Its bot runs in a process of its own: on a busy machine it answers late for the
    # machine's sake, so this check of the bench running gives it longer than Discord does.
    (
        "crash.py",
        ["--kills", "2", "--latency-clicks", "3", "--ack-deadline", "10"],
        ["kills_at_ack", "ack_cost"],
    ),
    ("records.py", ["--rounds", "20"], ["record_bytes_mean", "sqlite_database_bytes"]),
    ("recap.py", ["--search", "3", "--repeats", "1"], ["long_round", "usual_round"]),
    ("agreement.py", ["--rounds", "2", "--rollouts", "0"], ["agreement", "decisions"]),
    ("teams.py", ["--rounds", "2", "--rollouts", "4", "--first", "3", "--progress"], ["team"]),
    ("rollouts.py", ["--rounds", "1", "--budget", "0.002"], ["2_seats", "4_seats"]),
]


def run(script: str, args: list[str], tmp_path: Path) -> Any:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=tmp_path,  # whatever a benchmark leaves behind stays out of the checkout
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize(("script", "args", "keys"), QUICK, ids=lambda v: str(v))
def test_the_benchmark_runs_and_prints_json(
    script: str, args: list[str], keys: list[str], tmp_path: Path
) -> None:
    result = run(script, args, tmp_path)
    assert result
    for key in keys:
        assert key in result


def test_an_agreement_run_split_over_seeds_combines_into_the_whole(tmp_path: Path) -> None:
    quick = ["--rollouts", "0", "--independent-hard", "--ceiling"]
    whole = run("agreement.py", ["--rounds", "2", *quick], tmp_path)
    parts = []
    for seed in ("1", "2"):
        part = tmp_path / f"part{seed}.json"
        part.write_text(
            json.dumps(run("agreement.py", ["--rounds", "1", "--seed", seed, *quick], tmp_path))
        )
        parts.append(str(part))
    combined = run("agreement.py", ["--combine", *parts], tmp_path)
    for key in ("decisions", "agreed", "exact", "agreement", "exact_agreement", "judges_agree"):
        assert combined[key] == whole[key]
    assert combined["rounds"] == 2 and combined["first_seeds"] == [1, 2]
