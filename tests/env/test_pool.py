"""The session pool: caps, leases, idle TTL, the reaper and its counters."""

from __future__ import annotations

import threading
import time

import pytest

from prove.env import PoolFullError, Server, SessionClosedError, SessionPool, UnknownSessionError


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_create_get_close_and_counters(toy: Server) -> None:
    pool = SessionPool(max_sessions=4)
    s = pool.create([toy], world=1)
    assert pool.get(s.id) is s and s.id in pool
    pool.close(s.id)
    assert s.closed and s.id not in pool
    with pytest.raises(UnknownSessionError, match="no live session"):
        pool.get(s.id)
    with pytest.raises(UnknownSessionError):
        pool.close(s.id)
    assert pool.stats().to_dict() == {"created": 1, "live": 0, "in_use": 0, "reaped": 0, "closed": 1, "refused": 0,
                                      "bytes": 0, "largest": 0}


def test_full_pool_refuses_clearly_and_never_drops_a_session(toy: Server) -> None:
    clock = FakeClock()
    pool = SessionPool(max_sessions=2, idle_ttl=10, clock=clock)
    a, b = pool.create([toy]), pool.create([toy])
    with pytest.raises(PoolFullError, match="pool is full: 2 live sessions"):
        pool.create([toy])
    assert pool.stats().refused == 1 and not a.closed and not b.closed
    clock.t = 11  # both idle past the TTL: creation reaps them to make room
    c = pool.create([toy])
    assert a.closed and b.closed and not c.closed
    assert pool.stats().reaped == 2 and pool.stats().live == 1


def test_lease_prevents_reaping(toy: Server) -> None:
    clock = FakeClock()
    pool = SessionPool(max_sessions=4, idle_ttl=10, clock=clock)
    s = pool.create([toy])
    idle = pool.create([toy])
    with pool.lease(s.id) as leased:
        assert pool.stats().in_use == 1
        clock.t = 100
        assert pool.reap() == 1  # only the idle one
        assert idle.closed and not leased.closed
        leased.call("list_wallets")
    assert pool.stats().in_use == 0
    clock.t = 105  # the lease ended at t=100: not yet expired
    assert pool.reap() == 0
    clock.t = 111
    assert pool.reap() == 1 and s.closed
    with pytest.raises(SessionClosedError):
        s.call("list_wallets")


def test_get_restarts_the_idle_timer(toy: Server) -> None:
    clock = FakeClock()
    pool = SessionPool(idle_ttl=10, clock=clock)
    s = pool.create([toy])
    clock.t = 8
    pool.get(s.id)
    clock.t = 15
    assert pool.reap() == 0
    clock.t = 19
    assert pool.reap() == 1


def test_fork_through_pool(toy: Server) -> None:
    pool = SessionPool(max_sessions=2)
    parent = pool.create([toy], world=1, session_id="p")
    child = pool.fork("p", new_id="c")
    assert child.id == "c" and pool.get("c").fingerprint() == parent.fingerprint()
    with pytest.raises(PoolFullError):
        pool.fork("p")
    with pytest.raises(ValueError, match="already exists"):
        pool.create([toy], session_id="p")


def test_background_reaper_closes_idle_sessions(toy: Server) -> None:
    with SessionPool(idle_ttl=0.05, reap_interval=0.02) as pool:
        s = pool.create([toy])
        deadline = time.monotonic() + 5
        while s.id in pool and time.monotonic() < deadline:
            time.sleep(0.01)
        assert s.closed and pool.stats().reaped == 1
    assert pool.stats().live == 0


def test_shutdown_closes_everything(toy: Server) -> None:
    pool = SessionPool().start()
    sessions = [pool.create([toy]) for _ in range(3)]
    pool.shutdown()
    assert all(s.closed for s in sessions) and pool.stats().live == 0


def test_concurrent_creation_respects_the_cap(toy: Server) -> None:
    pool = SessionPool(max_sessions=10)
    errors: list[Exception] = []

    def worker() -> None:
        for _ in range(5):
            try:
                pool.create([toy])
            except PoolFullError as exc:
                errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = pool.stats()
    assert stats.live == 10 and stats.created == 10 and stats.refused == 30 == len(errors)


def test_invalid_configuration() -> None:
    with pytest.raises(ValueError):
        SessionPool(max_sessions=0)
    with pytest.raises(ValueError):
        SessionPool(idle_ttl=0)


def test_closing_a_leased_session_waits_for_the_lease(toy: Server) -> None:
    pool = SessionPool()
    s = pool.create([toy])
    with pool.lease(s.id) as leased:
        pool.close(s.id)
        assert s.id not in pool and not leased.closed
        assert leased.call("list_wallets").ok  # the call in flight finishes on an open session
        with pytest.raises(UnknownSessionError):
            pool.lease(s.id).__enter__()
    assert s.closed and pool.stats().closed == 1


def test_the_reaper_hands_freed_memory_back_after_sessions_close(toy: Server,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import prove.env.pool as pool_module

    trims: list[int] = []
    monkeypatch.setattr(pool_module, "_TRIM", trims.append)
    with SessionPool(reap_interval=0.01) as pool:
        pool.create([toy], 1)
        time.sleep(0.1)                 # reaper passes with nothing closed: nothing to hand back
        assert trims == []
        pool.close(pool.ids()[0])
        deadline = time.monotonic() + 10
        while not trims and time.monotonic() < deadline:
            time.sleep(0.01)
    assert trims == [0]
