#!/usr/bin/env python3
"""The package-level import graph of src/prove, its circles, and every import against the direction.

    python scripts/import_graph.py            # the graph, then the problems; exit 1 on any
    python scripts/import_graph.py --json     # the same as JSON
    python scripts/import_graph.py --root DIR # another tree laid out as src/prove

A package is a top-level part of `prove` (`env`, `reward`, `servers`, ...; the modules `calls` and
`records` count as parts of their own). Every `import` and `from ... import` in a module is an
edge from the module's part to the imported part, those inside functions included (a lazy import
is still a dependency). The allowed direction (docs: DESIGN.md, "Dependencies point one way"):

    servers -> env;  mcp, synth, reward, rollout -> env, records, calls;
    evals, curriculum -> synth, reward, rollout, env, records, calls;
    integrations, gym, cli -> everything.   env and records import nothing above them.

Standard library only (`ast`): it runs before anything is installed.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "prove"

BASE = {"env", "records", "calls"}
ALLOWED: dict[str, set[str]] = {
    "env": set(),
    "records": {"env"},          # records raises the framework's errors (env.errors)
    "calls": set(),
    "servers": {"env"},
    "mcp": BASE,
    "synth": BASE,
    "reward": BASE,
    "rollout": BASE,
    "evals": BASE | {"synth", "reward", "rollout"},
    "curriculum": BASE | {"synth", "reward", "rollout"},
    "testing": BASE,
}
TOP = {"integrations", "gym", "cli", "__init__", "__main__"}  # may import everything


def part_of(module: str) -> str:
    """`prove.reward.score` -> `reward`; `prove` -> `__init__`."""
    bits = module.split(".")
    return bits[1] if len(bits) > 1 else "__init__"


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path = ROOT) -> set[str]:
    """The `prove...` modules a file imports (relative imports resolved)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "prove")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "prove":
                continue
            if target == "prove":  # `from prove import reward`: the names are parts
                out.update(f"prove.{a.name}" for a in node.names)
            else:
                out.add(target)
    return out


def graph(root: Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """{part: {imported part: [modules that import it]}}, parts importing themselves left out."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in sorted(root.rglob("*.py")):
        src = module_name(path, root)
        a = part_of(src)
        edges.setdefault(a, {})
        for target in sorted(imports(path, root)):
            b = part_of(target)
            if b != a:
                edges[a].setdefault(b, []).append(src)
    return edges


def circles(edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Every elementary circle of the part graph, each once (rotated to start at its least part)."""
    found: set[tuple[str, ...]] = set()

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in edges.get(node, {}):
            if nxt == start:
                k = path.index(min(path))
                found.add(tuple(path[k:] + path[:k]))
            elif nxt not in path and nxt > start:
                walk(start, nxt, path + [nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return [list(c) for c in sorted(found)]


def violations(edges: dict[str, dict[str, list[str]]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    # The root package (`prove.__version__`) is below everything while it imports nothing itself.
    root_is_leaf = not edges.get("__init__")
    for a, targets in sorted(edges.items()):
        if a in TOP:
            continue
        allowed = ALLOWED.get(a)
        for b, where in sorted(targets.items()):
            if b == "__init__" and root_is_leaf:
                continue
            if allowed is None or b not in allowed:
                out.append({"from": a, "to": b, "modules": where})
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[argv.index("--root") + 1]).resolve() if "--root" in argv else ROOT
    edges = graph(root)
    loops = circles(edges)
    wrong = violations(edges)
    if "--json" in argv:
        print(json.dumps({"graph": {a: sorted(t) for a, t in sorted(edges.items())}, "circles": loops,
                          "violations": wrong}, indent=2))
    else:
        for a, targets in sorted(edges.items()):
            print(f"{a:14s} -> {', '.join(sorted(targets)) or '-'}")
        for loop in loops:
            print("circle: " + " -> ".join(loop + loop[:1]))
        for v in wrong:
            where = ", ".join(v["modules"])  # type: ignore[arg-type]
            print(f"against the direction: {v['from']} -> {v['to']} ({where})")
        print(f"{len(loops)} circle(s), {len(wrong)} import(s) against the direction")
    return 1 if loops or wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
