"""`prove synth`: the stages composed into a resumable, deterministic, sharded run.

Candidate example `i` is derived from (seed, i) alone: its server (a weighted round robin over
the servers, by tool count; or, for a `cross_server` share of candidates, a group of two or three
servers that bridges join, seen as one combined view: see docs/cross_server.md), the sampling context of its block (redrawn every `refresh`
conversations of that server), its chain, kind, level and perturbations, and every choice the
teacher makes (an RNG per purpose, seeded from seed and index). Candidates are processed in
shards of `shard_size`; workers produce a shard's validated examples, and the parent process
deduplicates them in index order and writes the shard. So `--workers K` writes byte-identical
files to `--workers 1`, whether the workers are processes here (`ProcessShards`) or Ray actors
across a cluster (`prove.integrations.ray.RayShards`, `--ray`), and a killed run continues from
the last complete shard.

The output directory's layout is in `rundir.py`.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..env import Server, Session, registry
from ..env.bridges import bridges_among
from ..env.combined import Combined
from ..env.errors import ProveError
from ..env.process import exit_with
from .config import SynthConfig
from .contract import ConversationSpec, Rejected, Target, Teacher
from .cross import carried
from .entities import EntityIndex
from .graph import DependencyGraph, build_graph, graph_cache_path
from .machine import Machine, finish, run_sync
from .perturb import choose, distractor_pool, shown_tools
from .quality import figures
from .report import collect
from .rundir import FORMAT_VERSION, RunDir
from .sampler import Sampler
from .teachers import make_teacher
from .validate import Deduper, call_set, check

__all__ = ["ProcessShards", "ShardRunner", "Summary", "SynthError", "Synthesizer", "load_servers", "run"]

log = logging.getLogger("prove.synth")


class SynthError(ProveError):
    """A synthesis run cannot start or continue (bad output directory, no server, bad config)."""


def load_servers(names: Sequence[str] = (), warn: Callable[[str], None] | None = None) -> list[Server]:
    """The servers to synthesise for; one that fails to load is skipped with a warning."""
    found, broken = registry.loadable(names)
    out = []
    for server in found:
        try:
            if not server.visible_tools:
                raise ProveError("it has no visible tools")
            server.template(0)
        except ProveError as exc:
            broken[server.name] = exc
            continue
        out.append(server)
    for name, exc in broken.items():
        message = f"server {name!r} skipped: {exc}"
        log.warning(message)
        if warn is not None:
            warn(message)
    if not out:
        raise SynthError("no server could be loaded" + (f" of {', '.join(names)}" if names else ""))
    return out


def groups(servers: Sequence[Server]) -> list[list[Server]]:
    """The pairs and triples of `servers` that bridges join (every member reached by one), in order."""
    out = []
    for size in (2, 3):
        for combo in itertools.combinations(servers, size):
            names = {s.name for s in combo}
            joined = set()
            for b in bridges_among(names):
                joined |= b.servers
            if joined == names:
                out.append(list(combo))
    return out


def _schedule(servers: Sequence[Server]) -> list[int]:
    """One cycle of a smooth weighted round robin over servers, weighted by visible tool count."""
    weights = [len(s.visible_tools) for s in servers]
    current = [0] * len(servers)
    total = sum(weights)
    out = []
    for _ in range(total):
        for i, w in enumerate(weights):
            current[i] += w
        best = max(range(len(servers)), key=lambda i: (current[i], -i))
        current[best] -= total
        out.append(best)
    return out


class Synthesizer:
    """Everything one process needs to turn candidate indices into judged examples."""

    def __init__(self, config: SynthConfig, *, cache_dir: Path | None = None,
                 warn: Callable[[str], None] | None = None, teacher: Teacher | None = None) -> None:
        self.config = config
        self.servers = load_servers(config.servers, warn)
        self.by_name = {s.name: s for s in self.servers}
        self.teacher = teacher or make_teacher(config.teacher, cache_dir=cache_dir, **config.teacher_options)
        classifier = self.teacher.classifier()
        prefetch = getattr(self.teacher, "prefetch", None)
        if classifier is not None and prefetch is not None:
            missing = [s for s in self.servers if cache_dir is None
                       or not graph_cache_path(s, self.teacher.id, cache_dir).is_file()]
            if missing:
                asyncio.run(prefetch(missing))
        self.graphs: dict[str, DependencyGraph] = {
            s.name: build_graph(s, classifier, classifier_id=self.teacher.id, cache_dir=cache_dir)
            for s in self.servers}
        worlds = list(range(config.worlds))
        self.samplers = {s.name: Sampler(s, config.seed, worlds, config.per_kind) for s in self.servers}
        self.pool = distractor_pool(self.servers)
        # Combined views of bridged groups, for the cross-server share (their graphs: the schema classifier).
        self.views = [Combined(g) for g in groups(self.servers)] if config.cross_server else []
        for view in self.views:
            self.by_name[view.name] = view
            self.graphs[view.name] = build_graph(view)
            self.samplers[view.name] = Sampler(view, config.seed, worlds, config.per_kind)
            members = {m.name for m in view.members}
            self.pool[view.name] = [t.openai_schema() for s in self.servers if s.name not in members
                                    for t in s.visible_tools]
        if config.cross_server and not self.views:
            raise SynthError("cross_server is set but no two servers of this run are joined by a bridge")
        self.schedule = _schedule(self.servers)
        self._slot = self._slots()
        self._indexes: dict[tuple[str, int], EntityIndex] = {}
        self._episodes: dict[tuple[str, int], Session] = {}
        self.machine = Machine(self.index)

    def _slots(self) -> list[int]:
        seen: dict[int, int] = {}
        out = []
        for s in self.schedule:
            out.append(seen.get(s, 0))
            seen[s] = seen.get(s, 0) + 1
        return out

    def index(self, server: Server, world: int) -> EntityIndex:
        key = (server.name, world)
        found = self._indexes.get(key)
        if found is None:
            found = self._indexes[key] = self.samplers[server.name].index(world)
        return found

    def episode(self, server: Server, world: int) -> Session:
        """An untouched session of a world, kept for the replays of validation and edge ordering:
        each runs in a trial of it (`machine.fresh_episode`), which leaves it untouched."""
        key = (server.name, world)
        found = self._episodes.get(key)
        if found is None:
            found = self._episodes[key] = Session([server], world=world, session_id=f"episode-{server.name}-{world}")
        return found

    def locate(self, i: int) -> tuple[Server, int]:
        """The server of candidate `i` and its conversation number on that server."""
        cycle, pos = divmod(i, len(self.schedule))
        s = self.schedule[pos]
        weight = len(self.servers[s].visible_tools)
        return self.servers[s], cycle * weight + self._slot[pos]

    def spec(self, i: int, target: Target | None = None) -> ConversationSpec:
        """Candidate `i`; with a `target`, candidate `i` of the stream of examples steered to it.

        A steered candidate takes the target's server, chain start, chain length and kind
        instead of drawing them; everything else is drawn as for any candidate (its own RNG,
        seeded from the seed, the index and the target), and it is judged the same way.
        """
        cfg = self.config
        if target is None and self.views and random.Random(f"{cfg.seed}:{i}:cross").random() < cfg.cross_server:
            return self._cross_spec(i)
        if target is None:
            server, j = self.locate(i)
            rng = random.Random(f"{cfg.seed}:{i}:spec")
            name = f"{server.name}-{cfg.seed}-{i:07d}"
        else:
            server, j = self._target(target), i
            rng = random.Random(f"{cfg.seed}:{i}:spec:{target}")
            name = f"{server.name}-{cfg.seed}-t{i:07d}"
        block = j // cfg.refresh
        context = self.samplers[server.name].context(block)
        graph = self.graphs[server.name]
        choice = choose(rng, cfg.rates, server, kind=target.kind if target else None,
                        tool=target.tool if target else None)
        hidden = {choice.abstain_tool} if choice.abstain_tool else set()
        tools, applied = shown_tools(server, rng, hidden=hidden, distractors=choice.distractors,
                                     pool=self.pool[server.name], strip=choice.strip)
        length = rng.choice(range(cfg.chain_min, cfg.chain_max + 1))
        start = None
        if target is not None:
            length = target.length or length
            start = target.tool if target.tool not in hidden else None
        chain = graph.walk(rng, length, start=start, avoid=frozenset(hidden))
        turns = 3 if rng.random() < cfg.rates.third_turn else 2
        return ConversationSpec(
            id=name, index=i, seed=cfg.seed, server=server, world=context.world,
            context=context, graph=graph, kind=choice.kind, level=choice.level, chain=tuple(chain), turns=turns,
            tools=tuple(tools), perturbations=tuple(sorted(set(choice.perturbations) | set(applied))),
            hidden=frozenset(hidden),
            abstain_tool=choice.abstain_tool, hide_lookup=choice.hide_lookup, ungrounded=cfg.ungrounded,
            recovery=cfg.rates.recovery, infeasible=cfg.rates.infeasible, max_turns=cfg.max_turns,
            max_steps=cfg.max_steps, max_regenerations=cfg.max_regenerations, teacher=self.teacher.id)

    def _cross_spec(self, i: int) -> ConversationSpec:
        """Candidate `i` on a combined view: a task whose chain crosses a bridge (kind multi_turn)."""
        cfg = self.config
        rng = random.Random(f"{cfg.seed}:{i}:spec:cross")
        view = self.views[rng.randrange(len(self.views))]
        graph = self.graphs[view.name]
        context = self.samplers[view.name].context(i // (cfg.refresh * len(self.views)))
        choice = choose(rng, cfg.rates, view, kind="multi_turn")
        tools, applied = shown_tools(view, rng, hidden=set(), distractors=choice.distractors,
                                     pool=self.pool[view.name], strip=choice.strip)
        length = rng.choice(range(max(2, cfg.chain_min), min(3, max(2, cfg.chain_max)) + 1))
        chain = graph.cross_walk(rng, length)
        turns = 3 if rng.random() < cfg.rates.third_turn else 2
        return ConversationSpec(
            id=f"{view.name}-{cfg.seed}-{i:07d}", index=i, seed=cfg.seed, server=view, world=context.world,
            context=context, graph=graph, kind=choice.kind, level=choice.level, chain=tuple(chain), turns=turns,
            tools=tuple(tools), perturbations=tuple(sorted(set(choice.perturbations) | set(applied))),
            ungrounded=cfg.ungrounded, recovery=cfg.rates.recovery, infeasible=cfg.rates.infeasible,
            max_turns=cfg.max_turns, max_steps=cfg.max_steps, max_regenerations=cfg.max_regenerations,
            teacher=self.teacher.id)

    def _target(self, target: Target) -> Server:
        server = self.by_name.get(target.server)
        if server is None:
            raise SynthError(f"no server {target.server!r} in this run ({', '.join(self.by_name)})")
        if target.tool is not None and target.tool not in self.graphs[server.name].tools:
            raise SynthError(f"{target.server} has no visible tool {target.tool!r}")
        return server

    async def aexample(self, i: int, target: Target | None = None) -> Candidate:
        spec = self.spec(i, target)
        base = {"index": i, "id": spec.id, "server": spec.server.name, "kind": spec.kind, "level": spec.level,
                "chain": len(spec.chain), "perturbations": list(spec.perturbations), "world": spec.world}
        conv = None
        try:
            conv = await self.machine.run(spec, self.teacher)
            record, stats = finish(conv, self.episode(spec.server, spec.world))
        except Rejected as exc:
            stats = _conv_stats(conv) if conv is not None else {}
            return Candidate(i, None, {**base, **stats, "status": exc.reason, "detail": exc.detail[:300]})
        finally:
            if conv is not None:
                conv.session.close()
        example = record.model_dump(mode="json", exclude_none=True)
        base.update(kind=record.kind, level=conv.decided.level, chain=len(conv.decided.chain),
                    perturbations=record.perturbations)
        verdict = check(example, spec.server, self.index(spec.server, spec.world),
                        max_failure_rate=self.config.max_failure_rate, parse=False,
                        episode=self.episode(spec.server, spec.world))
        info = {**base, **stats, "turns": len(example["turns"]),
                "replay": verdict.ok or verdict.reason not in ("replay_mismatch", "fingerprint_mismatch")}
        if not verdict.ok:
            return Candidate(i, None, {**info, "status": verdict.reason, "detail": verdict.detail[:300]})
        line = json.dumps(example, ensure_ascii=False)
        info["quality"] = figures(example, spec.server)
        if isinstance(spec.server, Combined):
            info["cross"] = carried(example, spec.server)
            if not (info["cross"]["value"] or info["cross"]["entity"]):
                return Candidate(i, None, {**info, "status": "not_carried",
                                           "detail": "no call takes what another server's call showed"})
        return Candidate(i, line, {**info, "status": "accepted"}, call_set(example))

    def example(self, i: int, target: Target | None = None) -> Candidate:
        """Candidate `i` (steered to `target` when given), judged (an async teacher gets an event loop of its own)."""
        if _is_async(self.teacher):
            return asyncio.run(self._closing(self.aexample(i, target)))
        return run_sync(self.aexample(i, target))

    def indices(self, s: int) -> range:
        size = self.config.shard_size
        return range(s * size, (s + 1) * size)

    def shard(self, s: int) -> list[Candidate]:
        if _is_async(self.teacher):
            return asyncio.run(self._closing(self.ashard(s)))
        return [self.example(i) for i in self.indices(s)]

    async def ashard(self, s: int) -> list[Candidate]:
        """A shard's candidates, all conversations in flight at once (the teacher bounds its requests)."""
        return list(await asyncio.gather(*(self.aexample(i) for i in self.indices(s))))

    async def _closing(self, coro: Any) -> Any:
        try:
            return await coro
        finally:
            await self.teacher.aclose()


def _is_async(teacher: Teacher) -> bool:
    return getattr(teacher, "is_async", False)


def _conv_stats(conv: Any) -> dict[str, Any]:
    return {"calls": len(conv.executed), "failed": sum(not e.result.ok for e in conv.executed),
            "regenerations": conv.regenerations, "outcomes": conv.outcomes,
            "refs": sum(len(e.refs) for e in conv.executed if e.mistake is None),
            "refs_exist": sum(r[2] for e in conv.executed if e.mistake is None for r in e.refs)}


@dataclass
class Candidate:
    index: int
    line: str | None
    info: dict[str, Any]
    calls: frozenset[str] = frozenset()


@dataclass
class Summary:
    out: Path
    accepted: int
    candidates: int
    shards: int
    resumed: int
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)
    stopped: str | None = None

    accepted_total: int = 0

    @property
    def yield_(self) -> float:
        """Accepted candidates over candidates run (the dataset keeps the first n accepted)."""
        return self.accepted_total / self.candidates if self.candidates else 0.0


# ----- process pool -------------------------------------------------------------------------------

_WORKER: Synthesizer | None = None


def _init_worker(config_json: str, cache_dir: str | None, parent: int) -> None:
    global _WORKER
    exit_with(parent)
    logging.getLogger("prove.env").setLevel(logging.CRITICAL)
    _WORKER = Synthesizer(SynthConfig.model_validate_json(config_json),
                          cache_dir=Path(cache_dir) if cache_dir else None)


def _work(s: int) -> list[Candidate]:
    assert _WORKER is not None
    return _WORKER.shard(s)


class ShardRunner(Protocol):
    """Runs a run's shards beside it: a context manager whose `submit(s)` is a future of shard `s`'s
    candidates, with `workers` shards running at once. `ProcessShards` (worker processes) and
    `prove.integrations.ray.RayShards` (Ray actors across a cluster) are the two."""

    workers: int

    def submit(self, s: int) -> Future[list[Candidate]]: ...

    def __enter__(self) -> ShardRunner: ...

    def __exit__(self, *exc: object) -> None: ...


RunnerFactory = Callable[[SynthConfig, int, Path | None], ShardRunner]
"""`factory(config, workers, cache_dir) -> ShardRunner`: what `run(..., runner=)` takes."""


class ProcessShards:
    """Shards in `workers` worker processes of this machine, each with its own `Synthesizer`."""

    def __init__(self, config: SynthConfig, workers: int, cache_dir: Path | None) -> None:
        self.config = config
        self.workers = workers
        self.cache_dir = cache_dir
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ProcessShards:
        import multiprocessing

        # Workers are the run's own children (spawn, not a forkserver, which outlives a killed run),
        # each watching the run: none survives it, and the resource tracker ends with the last of them.
        ctx = multiprocessing.get_context("spawn")
        cache = str(self.cache_dir) if self.cache_dir else None
        self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                         initargs=(self.config.model_dump_json(), cache, os.getpid()))
        return self

    def submit(self, s: int) -> Future[list[Candidate]]:
        assert self._pool is not None, "ProcessShards is used as a context manager"
        return self._pool.submit(_work, s)

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


# ----- the run ------------------------------------------------------------------------------------


def servers_digest(servers: Sequence[Server], graphs: dict[str, DependencyGraph]) -> dict[str, str]:
    """Per server, a hash of its tool schemas and of its world 0: a resumed run must see the same servers."""
    out = {}
    for s in servers:
        h = hashlib.sha256(graphs[s.name].schema_hash.encode())
        for table, digest in sorted(s.template(0).digests.items()):
            h.update(table.encode() + b"\0" + digest)
        out[s.name] = h.hexdigest()[:16]
    return out


def _manifest(rd: RunDir, config: SynthConfig, overwrite: bool, servers: dict[str, str]) -> dict[str, Any]:
    path, out = rd.manifest, rd.path
    digest = hashlib.sha256((config.digest() + json.dumps(servers, sort_keys=True)).encode()).hexdigest()[:16]
    fresh = {"format": FORMAT_VERSION, "digest": digest, "config": config.identity(), "servers": servers,
             "shards": []}
    if not path.exists() or overwrite:
        if overwrite:
            rd.clear_shards()
        return fresh
    try:
        found = json.loads(path.read_text())
    except ValueError as exc:
        raise SynthError(f"{path} is damaged ({exc}); rerun with --overwrite") from exc
    if found.get("digest") != fresh["digest"]:
        changed = sorted(k for k in set(servers) | set(found.get("servers", {}))
                         if servers.get(k) != found.get("servers", {}).get(k))
        what = (f"the servers changed since it started ({', '.join(changed)})" if changed and
                found.get("config") == fresh["config"] else "another configuration")
        raise SynthError(f"{out} holds a run with {what}; use another --out, or --overwrite to start again")
    return found


def run(config: SynthConfig, out: Path, *, workers: int = 1, cache_dir: Path | None = None,
        overwrite: bool = False, progress: Callable[[dict[str, Any]], None] | None = None,
        warn: Callable[[str], None] | None = None, synthesizer: Synthesizer | None = None,
        runner: RunnerFactory | None = None) -> Summary:
    """Run (or resume) a synthesis into `out`; see the module docstring for the layout.

    Shards run in this process with `workers=1`, in `workers` processes otherwise, or wherever
    `runner(config, workers, cache_dir)` sends them (`prove.integrations.ray.RayShards`): this
    process commits them in index order whichever ran them, so the files are the same.
    """
    started = time.perf_counter()
    out = Path(out)
    rd = RunDir(out)
    rd.create()
    local = synthesizer or Synthesizer(config, cache_dir=cache_dir, warn=warn)
    digests = servers_digest(local.servers, local.graphs)
    if local.views:  # a cross-server run also depends on the bridges its groups apply
        digests["bridges"] = hashlib.sha256(repr([v.bridges for v in local.views]).encode()).hexdigest()[:16]
    manifest = _manifest(rd, config, overwrite, digests)
    done = rd.completed(manifest)
    manifest["shards"] = done
    rd.write_json(rd.graphs, {n: g.to_dict() for n, g in sorted(local.graphs.items())}, indent=None)
    dedup = Deduper(config.dedup)
    accepted = 0
    candidates = 0
    reasons: dict[str, int] = {}
    for i, entry in enumerate(done):
        for info in rd.candidates(i):
            if info["status"] == "accepted":
                dedup.keep(frozenset(info["callset"]))
        accepted += entry["accepted"]
        candidates += entry["candidates"]
        for k, v in entry.get("reasons", {}).items():
            reasons[k] = reasons.get(k, 0) + v
    resumed = len(done)
    limit = int(config.n * config.max_candidates) + config.shard_size
    stopped = None

    def report(event: str) -> None:
        if progress is not None:
            progress({"event": event, "accepted": min(accepted, config.n), "n": config.n, "candidates": candidates,
                      "shards": len(manifest["shards"]), "reasons": dict(reasons)})

    report("start")

    def commit(s: int, results: list[Candidate]) -> None:
        nonlocal accepted, candidates
        lines = []
        metas = []
        shard_reasons: dict[str, int] = {}
        for c in results:
            info = dict(c.info)
            if c.line is not None:
                if dedup.add(c.calls):
                    lines.append(c.line)
                    info["callset"] = sorted(c.calls)
                else:
                    info["status"] = "duplicate"
            if info["status"] != "accepted":
                shard_reasons[info["status"]] = shard_reasons.get(info["status"], 0) + 1
            metas.append(info)
        data_sha, meta_sha = rd.write_shard(s, lines, metas)
        manifest["shards"].append({"shard": s, "candidates": len(results), "accepted": len(lines),
                                   "reasons": dict(sorted(shard_reasons.items())),
                                   "sha256": data_sha, "meta_sha256": meta_sha})
        rd.write(rd.manifest, json.dumps(manifest, indent=1, sort_keys=True).encode())
        accepted += len(lines)
        candidates += len(results)
        for k, v in shard_reasons.items():
            reasons[k] = reasons.get(k, 0) + v
        report("shard")

    next_shard = len(done)
    if accepted < config.n:
        if runner is None and workers > 1:
            runner = ProcessShards
        if runner is not None:
            stopped = _parallel(config, runner(config, workers, cache_dir), next_shard, commit, lambda: accepted,
                                lambda: candidates, limit)
        elif _is_async(local.teacher):
            stopped = asyncio.run(local._closing(_run_async(local, next_shard, commit, lambda: accepted,
                                                            lambda: candidates, limit)))
        else:
            while accepted < config.n:
                if candidates >= limit:
                    stopped = "max_candidates"
                    break
                commit(next_shard, local.shard(next_shard))
                next_shard += 1
    finish_run(out, config, manifest)
    report("done")
    return Summary(out, min(accepted, config.n), candidates, len(manifest["shards"]), resumed,
                   time.perf_counter() - started, reasons, stopped, accepted)


def _parallel(config: SynthConfig, runner: ShardRunner, first: int,
              commit: Callable[[int, list[Candidate]], None], accepted: Callable[[], int],
              candidates: Callable[[], int], limit: int) -> str | None:
    pending: dict[int, Future[list[Candidate]]] = {}
    nxt = first
    stopped = None
    with runner as pool:
        try:
            while True:
                # Keep every worker busy, guessing how many shards are still needed from the yield so far.
                done_c = candidates()
                rate = accepted() / done_c if done_c else 0.9
                needed = config.n - accepted()
                ahead = max(1, int(needed / max(rate, 0.05) / config.shard_size + 0.999))
                while len(pending) < min(pool.workers + 1, ahead) and (candidates() + len(pending) * config.shard_size) < limit:
                    pending[nxt] = pool.submit(nxt)
                    nxt += 1
                if not pending:
                    stopped = "max_candidates" if accepted() < config.n else None
                    break
                s = min(pending)
                commit(s, pending.pop(s).result())
                if accepted() >= config.n:
                    break
        finally:
            for f in pending.values():
                f.cancel()
    return stopped


async def _run_async(local: Synthesizer, first: int, commit: Callable[[int, list[Candidate]], None],
                     accepted: Callable[[], int], candidates: Callable[[], int], limit: int) -> str | None:
    """Async teachers in one process: two shards in flight, so the endpoint never waits on a shard's tail."""
    config = local.config
    pending: dict[int, asyncio.Task[list[Candidate]]] = {}
    nxt = first
    try:
        while True:
            while len(pending) < 2 and candidates() + len(pending) * config.shard_size < limit:
                pending[nxt] = asyncio.ensure_future(local.ashard(nxt))
                nxt += 1
            if not pending:
                return "max_candidates" if accepted() < config.n else None
            s = min(pending)
            commit(s, await pending.pop(s))
            if accepted() >= config.n:
                return None
    finally:
        for task in pending.values():
            task.cancel()
        if pending:
            await asyncio.gather(*pending.values(), return_exceptions=True)


def finish_run(out: Path, config: SynthConfig, manifest: dict[str, Any]) -> None:
    """Write dataset.jsonl (the first n accepted examples) and stats.json."""
    rd = RunDir(out)
    kept = [info["id"] for info in rd.iter_meta(manifest) if info["status"] == "accepted"][:config.n]
    tmp = rd.dataset.with_name(rd.dataset.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for n, line in enumerate(rd.iter_lines(manifest)):
            if n >= config.n:
                break
            fh.write(line + "\n")
    os.replace(tmp, rd.dataset)
    rd.write_json(rd.stats, collect(rd, manifest, kept))
