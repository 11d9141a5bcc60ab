"""A tiny server that exercises every framework feature, for the framework's own tests."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ctx, Entity, EntityKind, Sensitive, Server, ToolError, WorldGen

SCHEMA = """
CREATE TABLE wallets (wallet_id TEXT PRIMARY KEY, owner TEXT NOT NULL, balance REAL NOT NULL,
                      pin TEXT NOT NULL, frozen INTEGER NOT NULL DEFAULT 0);
CREATE TABLE moves (move_id TEXT PRIMARY KEY, src TEXT NOT NULL REFERENCES wallets(wallet_id),
                    dst TEXT NOT NULL REFERENCES wallets(wallet_id), amount REAL NOT NULL, at TEXT NOT NULL);
"""

WalletId = Annotated[str, Entity("wallet")]


class Wallet(BaseModel):
    wallet_id: WalletId
    owner: str
    balance: float


class Move(BaseModel):
    move_id: str
    src: WalletId
    dst: WalletId
    amount: float


def build(w: WorldGen) -> dict[str, list[dict]]:
    wallets = []
    for person in w.fake.people(20):
        wallets.append({"wallet_id": w.new_id("W"), "owner": person.name,
                        "balance": w.fake.money(0, 500), "pin": w.fake.digits(4), "frozen": 0})
    wallets[0]["frozen"] = 1
    return {"wallets": wallets}


def accrue_interest(ctx: Ctx, old: datetime, new: datetime) -> None:
    """One percent a day on wallets that are not frozen."""
    for _ in range((new.date() - old.date()).days):
        ctx.db.execute("UPDATE wallets SET balance = round(balance * 1.01, 2) WHERE frozen = 0")


def make_server(name: str = "toy") -> Server:
    server = Server(name, "Toy wallets", "Wallets that move money, for framework tests.",
                    schema=SCHEMA, world=build, on_advance=accrue_interest,
                    entities=[EntityKind("wallet", "wallets", "wallet_id", "owner", live="frozen = 0")])

    @server.tool(effect=READ, asks=["What is in wallet {wallet_id}?", "Show me {wallet_id}."])
    def get_wallet(ctx: Ctx, wallet_id: WalletId) -> Wallet:
        """Look up one wallet.

        Args:
            wallet_id: ID of the wallet, such as 'W-10001'.

        Returns:
            The wallet with its owner and balance.

        Raises:
            not_found: no wallet has that ID.
        """
        row = ctx.get("wallet", wallet_id)
        return Wallet(wallet_id=row["wallet_id"], owner=row["owner"], balance=row["balance"])

    @server.tool(effect=READ, asks=["List wallets.", "Which wallets are there, sorted by {order}?"])
    def list_wallets(ctx: Ctx, order: Literal["owner", "balance"] = "owner", limit: int = 10) -> list[Wallet]:
        """List wallets.

        Args:
            order: sort key, 'owner' or 'balance'.
            limit: how many to return, such as 10.
        """
        rows = ctx.db.execute(f"SELECT wallet_id, owner, balance FROM wallets ORDER BY {order} LIMIT ?",
                              (limit,)).fetchall()
        return [Wallet(**dict(r)) for r in rows]

    @server.tool(effect=WRITE, asks=["Move {amount} from {src} to {dst}.", "Send {amount} to {dst}."])
    def move(ctx: Ctx, src: WalletId, dst: WalletId, amount: Annotated[float, Field(gt=0)],
             pin: Annotated[str, Sensitive()], note: str | None = None) -> Move:
        """Move money between wallets.

        Args:
            src: wallet to debit, such as 'W-10002'.
            dst: wallet to credit, such as 'W-10003'.
            amount: positive amount, such as 25.5.
            pin: the 4-digit PIN of the debited wallet, such as '1234'.
            note: optional note.

        Returns:
            The move.

        Raises:
            not_found: a wallet does not exist.
            wrong_pin: the PIN does not match.
            frozen: the debited wallet is frozen.
            insufficient_funds: the debited wallet holds less than `amount`.
        """
        src_row = ctx.db.execute("SELECT * FROM wallets WHERE wallet_id = ?", (src,)).fetchone()
        dst_row = ctx.db.execute("SELECT * FROM wallets WHERE wallet_id = ?", (dst,)).fetchone()
        if src_row is None or dst_row is None:
            raise ToolError("not_found", "A wallet does not exist.")
        # Debit first, then check: the savepoint must undo this partial write on failure.
        ctx.db.execute("UPDATE wallets SET balance = balance - ? WHERE wallet_id = ?", (amount, src))
        if src_row["pin"] != pin:
            raise ToolError("wrong_pin", "The PIN is wrong.")
        if src_row["frozen"]:
            raise ToolError("frozen", "The wallet is frozen.")
        if src_row["balance"] < amount:
            raise ToolError("insufficient_funds", "Not enough money.", hint=f"Balance is {src_row['balance']}.")
        ctx.db.execute("UPDATE wallets SET balance = balance + ? WHERE wallet_id = ?", (amount, dst))
        move_id = ctx.new_id("MV")
        ctx.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)",
                       (move_id, src, dst, amount, ctx.now().isoformat()))
        return Move(move_id=move_id, src=src, dst=dst, amount=amount)

    @server.tool(effect=WRITE, asks=["Break {wallet_id}."])
    def explode(ctx: Ctx, wallet_id: WalletId) -> dict:
        """A tool with a bug, to test internal errors.

        Args:
            wallet_id: a wallet, such as 'W-10001'.
        """
        ctx.db.execute("DELETE FROM wallets WHERE wallet_id = ?", (wallet_id,))
        raise RuntimeError("bug")

    @server.tool(effect=WRITE, hidden=True)
    def spin(ctx: Ctx, n: int) -> int:
        """Write a row, then run a query of `n` steps (to test call timeouts).

        Args:
            n: number of steps, such as 1000.
        """
        ctx.db.execute("UPDATE wallets SET balance = balance + 1")
        sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) FROM c"
        return ctx.db.execute(sql, (n,)).fetchone()[0]

    @server.tool(effect=WRITE, hidden=True)
    def open_wallet(ctx: Ctx, owner: str) -> Wallet:
        """Open a wallet with a random welcome bonus (to test `ctx.rng`).

        Args:
            owner: the owner's name, such as 'Ada Li'.
        """
        wallet = Wallet(wallet_id=ctx.new_id("W"), owner=owner, balance=ctx.rng().randint(1, 10_000) / 100)
        ctx.db.execute("INSERT INTO wallets VALUES (?, ?, ?, '0000', 0)", (wallet.wallet_id, owner, wallet.balance))
        return wallet

    @server.tool(effect=READ, hidden=True)
    def sneaky_write(ctx: Ctx) -> int:
        """A read tool that writes (a bug the framework must catch)."""
        return ctx.db.execute("UPDATE wallets SET balance = balance + 1").rowcount

    @server.tool(effect=WRITE, hidden=True)
    def churn(ctx: Ctx, n: int, note: str = "") -> int:
        """Write a row, then loop `n` times in pure Python (to test that a timeout ends any call).

        Args:
            n: number of iterations, such as 1000.
            note: any text, such as 'a note' (to test what the call log keeps).
        """
        ctx.db.execute("UPDATE wallets SET balance = balance + 1")
        total = 0
        for i in range(n):
            total += i % 7
        return total

    @server.tool(effect=READ, hidden=True)
    def count_wallets(ctx: Ctx) -> int:
        """Count wallets (a hidden helper)."""
        return ctx.db.execute("SELECT count(*) FROM wallets").fetchone()[0]

    return server
