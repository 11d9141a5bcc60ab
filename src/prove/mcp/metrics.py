"""Counters and a latency histogram in the Prometheus text format (no client library needed).

Everything is updated from the event loop's thread, so plain integers suffice; the pool's own
counters are read at scrape time.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from typing import TYPE_CHECKING

from prove.env import INTERNAL_ERRORS

if TYPE_CHECKING:
    from prove.env import SessionPool

# Seconds; tool calls are sub-millisecond, the tail is what the histogram is for.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Histogram:
    __slots__ = ("counts", "total", "n")

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds
        self.n += 1


def _esc(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class Metrics:
    """The serving layer's figures: tool calls, their errors by code and latency, requests."""

    def __init__(self, worker: int = 0) -> None:
        self.worker = worker
        self.calls: defaultdict[str, int] = defaultdict(int)            # by server
        self.call_errors: defaultdict[str, int] = defaultdict(int)      # by error code
        self.latency = Histogram()
        self.refused: defaultdict[str, int] = defaultdict(int)          # serving errors by code
        self.control: defaultdict[tuple[str, int], int] = defaultdict(int)  # (operation, status)
        self.timeouts_running = 0                                       # calls abandoned, still running

    def call(self, server: str, code: str | None, seconds: float) -> None:
        self.calls[server] += 1
        if code is not None:
            self.call_errors[code] += 1
        self.latency.observe(seconds)

    def render(self, pool: SessionPool) -> str:
        stats = pool.stats()
        lines: list[str] = []

        def metric(name: str, kind: str, help_: str, samples: list[tuple[str, float]]) -> None:
            lines.append(f"# HELP {name} {help_}")
            lines.append(f"# TYPE {name} {kind}")
            for labels, value in samples:
                lines.append(f"{name}{labels} {value:g}" if isinstance(value, float) else f"{name}{labels} {value}")

        metric("prove_sessions_live", "gauge", "Live sessions (episodes) in the pool.", [("", stats.live)])
        metric("prove_sessions_in_use", "gauge", "Sessions under a lease (a call in progress).", [("", stats.in_use)])
        metric("prove_sessions_bytes", "gauge", "Bytes the live sessions hold (databases and call logs), about.",
               [("", stats.bytes)])
        metric("prove_session_bytes_max", "gauge", "Bytes of the largest live session, about.", [("", stats.largest)])
        for field, help_ in (("created", "Sessions created."), ("reaped", "Sessions reaped after their idle TTL."),
                             ("closed", "Sessions closed by their client or at shutdown."),
                             ("refused", "Session creations refused because the pool was full.")):
            metric(f"prove_sessions_{field}_total", "counter", help_, [("", getattr(stats, field))])
        metric("prove_tool_calls_total", "counter", "Tool calls over MCP and the control plane, by server.",
               [(f'{{server="{_esc(s)}"}}', n) for s, n in sorted(self.calls.items())])
        metric("prove_tool_call_errors_total", "counter", "Tool calls that ended in an error result, by code.",
               [(f'{{code="{_esc(c)}"}}', n) for c, n in sorted(self.call_errors.items())])
        metric("prove_requests_refused_total", "counter",
               "Requests refused by the serving layer (unknown session, pool full, timeout...), by code.",
               [(f'{{code="{_esc(c)}"}}', n) for c, n in sorted(self.refused.items())])
        metric("prove_control_requests_total", "counter", "Control-plane requests, by operation and status.",
               [(f'{{op="{_esc(op)}",status="{st}"}}', n) for (op, st), n in sorted(self.control.items())])
        metric("prove_tool_internal_errors_total", "counter",
               "Tool calls that hit a bug in the server (answered internal_error), by tool, in this process.",
               [(f'{{server="{_esc(s)}",tool="{_esc(t)}"}}', n) for (s, t), n in INTERNAL_ERRORS.items()])
        metric("prove_calls_abandoned_running", "gauge",
               "Calls that timed out and whose thread has not finished yet.", [("", self.timeouts_running)])
        name = "prove_tool_call_duration_seconds"
        lines.append(f"# HELP {name} Tool call latency inside the server (lease, queue and execution).")
        lines.append(f"# TYPE {name} histogram")
        running = 0
        for bound, count in zip(BUCKETS, self.latency.counts):
            running += count
            lines.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
        lines.append(f'{name}_bucket{{le="+Inf"}} {self.latency.n}')
        lines.append(f"{name}_sum {self.latency.total:.6f}")
        lines.append(f"{name}_count {self.latency.n}")
        return "\n".join(lines) + "\n"
