"""Synthesis benchmark: a paper-sized dataset with the programmatic teacher, and OpenAI-teacher throughput.

Prints JSON. Two parts:

1. **Programmatic**: `prove synth` of 13,500 examples over every registered server that loads,
   with `--workers` processes (2 by default: this project's machines have 2 cores), into a
   temporary directory. Reported: wall time, yield, grounding (gold entity references that exist
   in the live state), replay pass rate, and an *independent* check after the run: every
   accepted example's gold calls are replayed on a fresh session, each must succeed and the
   last fingerprint must equal the recorded one.
   Targets: at most 600 s (300 s for the faithful-synthesis round), yield at least 90% (95%),
   every example replays, zero references to entities that do not exist; and the wording figures
   of `prove.synth.quality` (replies pasting descriptions, parameter-name clauses, raw IDs, empty
   searches, the top opener, tool coverage) against their targets. With `--cross-server SHARE`
   the run's cross-server figures are reported too (`docs/cross_server.md`).

2. **OpenAI-compatible teacher**: a scripted chat-completions server on 127.0.0.1 answers every
   request after a fixed delay d; the synthesis runs at concurrency c against it (graph
   classification excluded: it happens once per schema and is cached). Throughput is
   conversation requests per second over the run. Target: at least 0.8 x c / d.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from prove.env import Session
from prove.synth import SynthConfig, Synthesizer, run
from prove.synth.pipeline import load_servers
from prove.synth.teachers.scripted import OracleProcess

TARGET_SECONDS = 600.0
TARGET_YIELD = 0.90
TARGET_THROUGHPUT_RATIO = 0.8


def _replay(dataset: Path) -> dict[str, Any]:
    """Replay every example's gold calls on a fresh session: each must succeed, the fingerprint must match."""
    checked = failed_calls = mismatches = 0
    with open(dataset, encoding="utf-8") as fh:
        for line in fh:
            ex = json.loads(line)
            checked += 1
            with Session(ex["servers"], world=ex["world"]) as s:
                for turn in ex["turns"]:
                    if turn.get("advance"):
                        s.advance(turn["advance"])
                    for c in turn["calls"]:
                        if not s.call(c["name"], c["arguments"]).ok:
                            failed_calls += 1
                if s.fingerprint() != ex["fingerprint"]:
                    mismatches += 1
    return {"checked": checked, "failed_gold_calls": failed_calls, "fingerprint_mismatches": mismatches}


def programmatic(n: int, workers: int, seed: int, servers: list[str], cross_server: float = 0.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="prove-bench-synth-") as tmp:
        out = Path(tmp) / "out"
        cfg = SynthConfig(n=n, seed=seed, servers=servers, cross_server=cross_server)
        started = time.perf_counter()
        summary = run(cfg, out, workers=workers, cache_dir=Path(tmp) / "cache")
        seconds = time.perf_counter() - started
        stats = json.loads((out / "stats.json").read_text())
        t = time.perf_counter()
        replay = _replay(out / "dataset.jsonl")
        replay["seconds"] = round(time.perf_counter() - t, 1)
        size = (out / "dataset.jsonl").stat().st_size
    g = stats["grounding"]
    result = {
        "n": n, "workers": workers, "servers": len(stats["per_server"]), "seconds": round(seconds, 1),
        "examples_per_s": round(summary.accepted / seconds, 1), "accepted": summary.accepted,
        "candidates": summary.candidates, "yield": round(summary.yield_, 4), "rejected": summary.reasons,
        "kinds": stats["kinds"], "dataset_mb": round(size / 2**20, 1),
        "gold_entity_existence": g["gold_entity_existence"], "gold_refs": g["gold_refs"],
        "entity_existence": g["entity_existence"], "replay_pass_rate": g["replay_pass_rate"],
        "state_machine_failure_rate": g["state_machine_failure_rate"], "independent_replay": replay,
        "wording": {k: v for k, v in stats["quality"].items() if k != "tools_never_used"},
        "tools_never_in_gold": stats["quality"]["tools_never_used"],
    }
    if "cross_server" in stats:
        result["cross_server"] = stats["cross_server"]
    result["targets"] = {
        "seconds<=600": seconds <= TARGET_SECONDS * n / 13_500,
        "yield>=0.90": summary.yield_ >= TARGET_YIELD,
        "every_example_replays": replay["failed_gold_calls"] == 0 and replay["fingerprint_mismatches"] == 0,
        "no_missing_entities": g["gold_refs_exist"] == g["gold_refs"],
        "seconds<=300 (faithful-synthesis target)": seconds <= 300 * n / 13_500,
        "yield>=0.95": summary.yield_ >= 0.95,
        "no_description_in_replies": stats["quality"]["docstring_reply_share"] == 0,
        "no_parameter_name_clauses": stats["quality"]["clause_turn_share"] == 0,
        "raw_id_turns<=0.15": (stats["quality"]["raw_id_turn_share"] or 0) <= 0.15,
        "empty_searches<=0.10": (stats["quality"]["empty_search_share"] or 0) <= 0.10,
        "top_opener<=0.03": (stats["quality"]["top_opener_share"] or 0) <= 0.03,
        "tool_coverage>=0.99": (stats["quality"]["tool_coverage"] or 0) >= 0.99,
    }
    return result


def openai_throughput(delay: float, concurrency: int, conversations: int, seed: int,
                      servers: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="prove-bench-openai-") as tmp, OracleProcess(delay) as server:
        cfg = SynthConfig(n=conversations, seed=seed, servers=servers, shard_size=max(concurrency * 4, 50),
                          teacher=f"openai:scripted@{server.url}",
                          teacher_options={"concurrency": concurrency, "classify": False, "timeout": 60})
        synth = Synthesizer(cfg, cache_dir=Path(tmp) / "cache")  # servers load before the clock starts
        started = time.perf_counter()
        summary = run(cfg, Path(tmp) / "out", cache_dir=Path(tmp) / "cache", synthesizer=synth)
        seconds = time.perf_counter() - started
        requests = synth.teacher.stats["requests"]  # type: ignore[attr-defined]
    throughput = requests / seconds if seconds else 0.0
    ideal = concurrency / delay
    return {
        "delay_s": delay, "concurrency": concurrency, "conversations": summary.candidates,
        "accepted": summary.accepted, "rejected": summary.reasons, "requests": requests,
        "seconds": round(seconds, 2), "requests_per_s": round(throughput, 1), "ideal_per_s": round(ideal, 1),
        "ratio": round(throughput / ideal, 3), "peak_in_flight": server.peak if server.peak else None,
        "target": f">= {TARGET_THROUGHPUT_RATIO} x c/d", "pass": throughput >= TARGET_THROUGHPUT_RATIO * ideal,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=13_500, help="examples of the programmatic run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--servers", default="", help="comma-separated; default every server that loads")
    parser.add_argument("--delay", type=float, default=0.2, help="scripted server delay d (s)")
    parser.add_argument("--concurrency", type=int, default=32, help="requests in flight c")
    parser.add_argument("--conversations", type=int, default=600, help="conversations of the throughput run")
    parser.add_argument("--quick", action="store_true", help="1,350 examples and 200 conversations (a smoke run)")
    parser.add_argument("--skip", choices=["programmatic", "openai"], action="append", default=[])
    parser.add_argument("--cross-server", type=float, default=0.0, help="share of cross-server candidates")
    args = parser.parse_args(argv)
    logging.getLogger("prove.env").setLevel(logging.CRITICAL)
    logging.getLogger("prove.synth").setLevel(logging.ERROR)
    n = 1_350 if args.quick else args.n
    conversations = 200 if args.quick else args.conversations
    names = [s for s in args.servers.split(",") if s]
    servers = [s.name for s in load_servers(names)]
    result: dict[str, Any] = {
        "benchmark": "synth", "python": platform.python_version(), "cpus": os.cpu_count(),
        "machine": platform.machine(),
    }
    if "programmatic" not in args.skip:
        result["programmatic"] = programmatic(n, args.workers, args.seed, servers, args.cross_server)
    if "openai" not in args.skip:
        result["openai"] = openai_throughput(args.delay, args.concurrency, conversations, args.seed, servers)
    sys.stdout.write(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
