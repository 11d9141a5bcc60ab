"""Small servers for the serving tests: a twin of toy (colliding tool names) and slow tools."""

from __future__ import annotations

import time

from prove.env import READ, WRITE, Ctx, Server

from ..env.toy import make_server


def make_twin_server() -> Server:
    """A server whose `get_wallet` collides with toy's, to exercise qualified names."""
    server = Server("twin", "Twin wallets", "A second wallet server whose tool names collide with toy's.",
                    schema="CREATE TABLE wallets (wallet_id TEXT PRIMARY KEY, label TEXT NOT NULL);",
                    world=lambda w: {"wallets": [{"wallet_id": w.new_id("T"), "label": f"twin {i}"} for i in range(3)]})

    @server.tool(effect=READ, asks=["Show twin wallet {wallet_id}.", "What is twin {wallet_id}?"])
    def get_wallet(ctx: Ctx, wallet_id: str) -> dict:
        """Look up one twin wallet.

        Args:
            wallet_id: ID of the twin wallet, such as 'T-10001'.

        Returns:
            The wallet's ID and label.
        """
        row = ctx.db.execute("SELECT wallet_id, label FROM wallets WHERE wallet_id = ?", (wallet_id,)).fetchone()
        return dict(row) if row else {}

    @server.tool(effect=WRITE, asks=["Rename twin {wallet_id} to {label}.", "Call twin {wallet_id} {label}."])
    def rename(ctx: Ctx, wallet_id: str, label: str) -> dict:
        """Rename a twin wallet.

        Args:
            wallet_id: ID of the twin wallet, such as 'T-10001'.
            label: the new label, such as 'savings'.

        Returns:
            How many wallets were renamed.
        """
        cur = ctx.db.execute("UPDATE wallets SET label = ? WHERE wallet_id = ?", (label, wallet_id))
        return {"renamed": cur.rowcount}

    return server


def make_slow_server() -> Server:
    """Tools that run too long: a runaway query (abortable) and a pure-Python sleep (not)."""
    server = Server("slow", "Slow", "Tools that take too long, to test per-call timeouts and aborts.",
                    schema="CREATE TABLE counter (k TEXT PRIMARY KEY, v INTEGER NOT NULL);",
                    world=lambda w: {"counter": [{"k": "a", "v": 0}]})

    @server.tool(effect=WRITE, asks=["Spin {n} times.", "Count to {n}."])
    def spin(ctx: Ctx, n: int) -> dict:
        """Bump the counter, then run a query counting to `n` (a runaway query for a large `n`).

        Args:
            n: how far the query counts, such as 1000.

        Returns:
            The count reached.
        """
        ctx.db.execute("UPDATE counter SET v = v + 1 WHERE k = 'a'")
        sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) FROM c"
        return {"count": ctx.db.execute(sql, (n,)).fetchone()[0]}

    @server.tool(effect=WRITE, asks=["Nap for {seconds} seconds.", "Sleep {seconds}s."])
    def nap(ctx: Ctx, seconds: float) -> dict:
        """Bump the counter, then block the thread (a hang outside SQLite, which cannot be aborted).

        Args:
            seconds: how long to block, such as 0.1.

        Returns:
            The seconds slept.
        """
        ctx.db.execute("UPDATE counter SET v = v + 1 WHERE k = 'a'")
        time.sleep(seconds)
        return {"slept": seconds}

    @server.tool(effect=READ, asks=["What is the counter?", "Read the counter."])
    def value(ctx: Ctx) -> dict:
        """Read the counter.

        Returns:
            The counter's value.
        """
        return {"v": ctx.db.execute("SELECT v FROM counter WHERE k = 'a'").fetchone()[0]}

    return server


def all_test_servers() -> list[Server]:
    """For `--load tests.mcp.servers:all_test_servers` in subprocess servers."""
    return [make_server(), make_twin_server(), make_slow_server()]
