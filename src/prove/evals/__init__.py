"""External benchmarks run with their own executors and checkers, never re-implemented.

- `bfcl`: BFCL v4 multi-turn (`base`, `miss_func`, `miss_param`, `long_context`) on BFCL's backends,
  judged by BFCL's `multi_turn_checker` (extra `bfcl`; bfcl-eval itself installed with `--no-deps`);
  `bfcl_records` turns its entries into PROVE records.
- `tau2`: tau2-bench's airline, retail and telecom tasks in tau2's environment, with its user
  simulator and its reward (extra `tau2`).
- `stats`, `results`, `plot`: every figure with n and a bootstrap interval, the spread across runs,
  pass^k, and the paired comparison of two results (with a plot).

The benchmark packages are imported on first use: without them this package imports, and a run
raises `MissingExtra` naming what to install.
"""

from .errors import EvalError, MissingExtra
from .results import FORMAT, compare, compare_all, read_results, result, summarize

__all__ = ["FORMAT", "EvalError", "MissingExtra", "compare", "compare_all", "read_results", "result", "summarize"]
