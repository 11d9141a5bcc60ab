"""Reward benchmark: trajectories scored per second on one core, for 5-call and 20-call episodes.

Prints JSON. Each trajectory is scored end to end (parse the model's calls from the record,
align them with the prepared gold, compute every component and the weighted total with its
breakdown), for three input forms: OpenAI chat `messages` with tool results, raw Hermes/Qwen
text with `<tool_call>` / `<tool_response>` blocks, and calls already parsed (the scoring
alone). The golds are prepared once, as a trainer's scorer does. No execution: the outcomes are
in the trajectories. The process is pinned to one CPU where the OS allows it.

Target: at least 20,000 five-call trajectories per second from `messages` on one core, and a
worst case of 50 ms to parse any of the 1 MB adversarial completions.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from prove.calls import parse_completion
from prove.reward import RewardConfig, Scorer, parse_trajectory

TARGET_5_CALL_PER_S = 20_000
N_TOOLS = 12
VARIANTS = 64  # distinct trajectories per size, cycled


def _tools() -> list[dict[str, Any]]:
    tools = []
    for t in range(N_TOOLS):
        props = {
            "item_id": {"type": "string", "description": "ID such as 'IT-10001'."},
            "count": {"type": "integer", "description": "how many, such as 3."},
            "amount": {"type": "number", "description": "amount, such as 12.5."},
            "mode": {"type": "string", "enum": ["fast", "slow", "auto"], "description": "mode.", "default": "auto"},
            "note": {"type": "string", "description": "optional note."},
        }
        required = ["item_id", "count"] if t % 2 else ["item_id", "amount"]
        tools.append({"type": "function", "function": {"name": f"tool_{t}", "description": f"Tool {t}.",
                                                       "parameters": {"type": "object", "properties": props,
                                                                      "required": required}}})
    return tools


def _example(n: int, rng: random.Random) -> dict[str, Any]:
    calls = []
    for i in range(n):
        t = rng.randrange(N_TOOLS)
        args: dict[str, Any] = {"item_id": f"IT-{10000 + rng.randrange(500)}"}
        args["count" if t % 2 else "amount"] = rng.randrange(1, 9) if t % 2 else round(rng.uniform(1, 99), 2)
        if rng.random() < 0.5:
            args["mode"] = rng.choice(["fast", "slow"])
        after = [f"c{j + 1}" for j in range(max(0, i - 2), i) if rng.random() < 0.5]
        calls.append({"id": f"c{i + 1}", "name": f"tool_{t}", "arguments": args, "after": after})
    half = n // 2
    return {"id": f"bench-{n}", "servers": [], "world": 0, "kind": "multi_turn", "tools": _tools(),
            "turns": [{"user": "first", "calls": calls[:half]}, {"user": "then", "calls": calls[half:]}]}


def _model_calls(example: dict[str, Any], rng: random.Random) -> list[tuple[int, dict[str, Any], bool]]:
    """A plausible policy episode: mostly the gold, with a wrong value, a dropped or an extra call."""
    out = []
    for turn, t in enumerate(example["turns"]):
        for call in t["calls"]:
            args = dict(call["arguments"])
            roll = rng.random()
            if roll < 0.08:
                continue  # dropped
            if roll < 0.2:
                args["item_id"] = args["item_id"] + "9"  # wrong value
            if roll < 0.25:
                args["mode"] = "FAST "  # normalised: case of an enum, whitespace
            out.append((turn, {"name": call["name"], "arguments": args}, rng.random() > 0.1))
            if rng.random() < 0.1:
                out.append((turn, {"name": call["name"], "arguments": args}, True))  # repeated
    return out


_RESULT = json.dumps({"item": {"item_id": "IT-10042", "name": "A thing", "price": 12.5, "tags": ["a", "b", "c"],
                               "stock": 7, "updated": "2026-03-16T09:00:00"}})
_ERROR = json.dumps({"error": {"code": "not_found", "message": "No item 'IT-100429'.", "hint": "List items first."}})


def _messages(example: dict[str, Any], calls: list[tuple[int, dict[str, Any], bool]]) -> dict[str, Any]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful assistant with tools."}]
    turn_now = -1
    for k, (turn, call, ok) in enumerate(calls):
        while turn_now < turn:
            turn_now += 1
            msgs.append({"role": "user", "content": example["turns"][turn_now]["user"]})
        cid = f"call_{k}"
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": call["name"],
                                                         "arguments": json.dumps(call["arguments"])}}]})
        msgs.append({"role": "tool", "tool_call_id": cid, "content": _RESULT if ok else _ERROR})
    msgs.append({"role": "assistant", "content": "All done."})
    return {"example_id": example["id"], "messages": msgs}


def _text(example: dict[str, Any], calls: list[tuple[int, dict[str, Any], bool]]) -> dict[str, Any]:
    parts = []
    for _turn, call, ok in calls:
        parts.append("<think>Next step.</think>\n<tool_call>\n" + json.dumps(call) + "\n</tool_call>")
        parts.append("<|im_end|>\n<|im_start|>user\n<tool_response>\n" + (_RESULT if ok else _ERROR)
                     + "\n</tool_response><|im_end|>\n<|im_start|>assistant\n")
    parts.append("All done.")
    return {"example_id": example["id"], "completion": "".join(parts)}


def _rate(fn: Callable[[Any], Any], items: list[Any], seconds: float, repeats: int) -> dict[str, float]:
    """Best-of-`repeats` throughput of `fn` over `items` (cycled) for about `seconds` each: by the wall
    clock (`per_s`) and by the thread's CPU time (`cpu_per_s`, what a shared machine's other load
    takes less from)."""
    best, best_cpu = 0.0, 0.0
    per_round = max(1, len(items))
    for _ in range(repeats):
        gc.collect()  # the collector stays on while timing, as it is in a trainer
        done = 0
        t0 = time.perf_counter()
        c0 = time.thread_time()
        deadline = t0 + seconds
        while True:
            for item in items:
                fn(item)
            done += per_round
            now = time.perf_counter()
            if now >= deadline:
                break
        cpu = time.thread_time() - c0
        best = max(best, done / (now - t0))
        best_cpu = max(best_cpu, done / cpu) if cpu > 0 else best_cpu
    return {"per_s": round(best), "us_each": round(1e6 / best, 2), "cpu_per_s": round(best_cpu)}


_MB = 1_000_000
# Completions of about 1 MB built to stall backtracking parsers, and dense ones (a tag every few
# characters) whose cost is the number of tags they hold: the parser's caps (`ParseLimits`) bound
# the work on those, and count the calls past them.
ADVERSARIAL = {
    "fence_blank_lines": lambda: "```" + "\n" * _MB,
    "fence_spaces": lambda: "```json" + " \n" * (_MB // 2) + "x",
    "open_brackets": lambda: "[ {" * (_MB // 3),
    "key_then_spaces": lambda: '{"name"' + " " * _MB + ":",
    "unclosed_think": lambda: "<think>" * (_MB // 16) + "</think>" * (_MB // 16),
    "open_call_blank_lines": lambda: "<tool_call>{" + "\n" * _MB,
    "angle_brackets": lambda: "<tool_call>{}" + "<" * _MB,
    "dense_empty_calls": lambda: "<tool_call>" * (_MB // 11),
    "dense_calls": lambda: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' * (_MB // 52),
    "dense_responses": lambda: "<tool_call>{}</tool_call>" + "<tool_response>" * (_MB // 15),
    "dense_think": lambda: "<tool_call>{}</tool_call>" + "<think></think>" * (_MB // 15),
    "dense_user_turns": lambda: "<tool_call>{}</tool_call>" + "<|im_start|>user\n" * (_MB // 17),
    "dense_json_calls": lambda: '{"name": "f"} ' * (_MB // 14),
    "dense_json_keys": lambda: 'x "name": ' * (_MB // 10),
    "json_list_of_calls": lambda: "[" + ", ".join(['{"name": "f", "arguments": {}}'] * (_MB // 32)) + "]",
}
TARGET_ADVERSARIAL_MS = 50


def _adversarial() -> dict[str, Any]:
    """Parse time (best of 3, ms) of each adversarial completion, and the worst of them."""
    times = {}
    for name, make in ADVERSARIAL.items():
        text = make()
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            parse_completion(text)
            best = min(best, time.perf_counter() - t0)
        times[name] = round(best * 1000, 2)
    worst = max(times, key=times.get)  # type: ignore[arg-type]
    return {"ms": times, "worst": worst, "worst_ms": times[worst], "target_ms": TARGET_ADVERSARIAL_MS}


def _pin() -> tuple[int | None, set[int] | None]:
    """Pin the process to one CPU (the last it may use): (that CPU, the CPUs to restore after)."""
    try:
        allowed = os.sched_getaffinity(0)
        cpu = max(allowed)
        os.sched_setaffinity(0, {cpu})
        return cpu, allowed
    except (AttributeError, OSError):
        return None, None


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="prove bench reward")
    parser.add_argument("--quick", action="store_true", help="short rounds (a smoke run)")
    opts = parser.parse_args(argv)
    seconds, repeats = (0.2, 1) if opts.quick else (1.5, 3)
    cpu, allowed = _pin()
    try:
        return _measure(seconds, repeats, cpu)
    finally:
        if allowed is not None:
            os.sched_setaffinity(0, allowed)


def _measure(seconds: float, repeats: int, cpu: int | None) -> dict[str, Any]:
    rng = random.Random(0)
    config = RewardConfig()
    out: dict[str, Any] = {"benchmark": "reward", "python": platform.python_version(),
                           "implementation": platform.python_implementation(), "pinned_cpu": cpu,
                           "cpus": os.cpu_count(), "seconds_per_round": seconds, "rounds": repeats, "sizes": {}}
    for n in (5, 20):
        example = _example(n, rng)
        scorer = Scorer([example], config)
        episodes = [_model_calls(example, rng) for _ in range(VARIANTS)]
        as_messages = [_messages(example, e) for e in episodes]
        as_text = [_text(example, e) for e in episodes]
        parsed = [parse_trajectory(t) for t in as_messages]
        gold = scorer.gold(example["id"])
        mean = sum(scorer.score(t).total for t in as_messages) / len(as_messages)
        out["sizes"][f"{n}_calls"] = {
            "gold_calls": n,
            "mean_model_calls": round(sum(len(p) for p in parsed) / len(parsed), 2),
            "mean_score": round(mean, 4),
            "messages": _rate(scorer.score, as_messages, seconds, repeats),
            "text": _rate(scorer.score, as_text, seconds, repeats),
            "parsed": _rate(functools.partial(scorer.score_calls, gold), parsed, seconds, repeats),
        }
    out["adversarial_1mb"] = _adversarial()
    five = out["sizes"]["5_calls"]["messages"]["per_s"]
    out["target_5_call_per_s"] = TARGET_5_CALL_PER_S
    out["meets_target"] = five >= TARGET_5_CALL_PER_S
    sys.stdout.write(json.dumps(out, indent=2) + "\n")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
