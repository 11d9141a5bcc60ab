"""Filesystem tools: the Personal Vault, a folder of identity documents locked by a passcode.

While locked, nothing inside '/Personal Vault' can be listed, read, changed or searched
(`vault_locked`). `unlock_vault` with the user's 6-digit passcode opens it for 20 minutes of
simulated time (`Session.advance` relocks it), `lock_vault` closes it at once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset
from prove.env.values import iso

from .server import (
    VAULT,
    VAULT_UNLOCK_MINUTES,
    FolderPath,
    human,
    prefix,
    vault_open,
)

tools = Toolset("vault")

Passcode = Annotated[str, Sensitive()]

# ----- models -----------------------------------------------------------------------------------


class VaultStatus(BaseModel):
    path: FolderPath
    locked: bool
    unlocked_until: str | None = Field(description="when it locks itself again, while unlocked")
    items: int | None = Field(description="files and folders inside (shown only while unlocked)")
    size: int | None = Field(description="bytes inside (shown only while unlocked)")
    size_text: str | None


class VaultPasscode(BaseModel):
    passcode: Passcode


# ----- helpers ----------------------------------------------------------------------------------


def _status(ctx: Ctx) -> VaultStatus:
    (until,) = ctx.db.execute("SELECT vault_unlocked_until FROM account").fetchone()
    if not vault_open(ctx):
        return VaultStatus(path=VAULT, locked=True, unlocked_until=None, items=None, size=None, size_text=None)
    items, size = ctx.db.execute(
        "SELECT count(*), coalesce(sum(CASE WHEN kind = 'file' THEN size END), 0) FROM nodes "
        "WHERE trash_id IS NULL AND substr(path, 1, ?) = ?", (len(prefix(VAULT)), prefix(VAULT))).fetchone()
    return VaultStatus(path=VAULT, locked=False, unlocked_until=until, items=items, size=size, size_text=human(size))


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Is my Personal Vault locked?",
    "How long will the vault stay unlocked?",
], reply=[
    "Your Personal Vault is unlocked until {result.unlocked_until}; it holds {result.items} items "
    "({result.size_text}).",
    Ask("Your Personal Vault is locked.", **{"result.locked": True}),
])
def get_vault_status(ctx: Ctx) -> VaultStatus:
    """Say whether the Personal Vault is locked, and until when it stays unlocked.

    Returns:
        The vault's path, whether it is locked, when it locks itself again, and (while unlocked)
        how many items and bytes it holds.
    """
    return _status(ctx)


@tools.tool(effect=WRITE, asks=[
    "Unlock my Personal Vault; the passcode is {passcode}.",
    "Open the vault with code {passcode}.",
], reply=[
    "The vault is open until {result.unlocked_until}.",
    "Done: your Personal Vault is unlocked; it locks itself again at {result.unlocked_until}.",
])
def unlock_vault(ctx: Ctx, passcode: Passcode) -> VaultStatus:
    """Unlock the Personal Vault with the user's passcode, for 20 minutes (unlocking again restarts the timer).

    Args:
        passcode: the user's 6-digit vault passcode, as the user gave it, such as '482913'.

    Returns:
        The vault's status: unlocked, until when, and what it holds.

    Raises:
        wrong_passcode: the passcode is not the user's vault passcode.
    """
    (code,) = ctx.db.execute("SELECT vault_passcode FROM account").fetchone()
    if passcode.strip() != code:
        raise ToolError("wrong_passcode", "That is not the vault passcode.",
                        hint="Ask the user for their 6-digit Personal Vault passcode.")
    until = iso(ctx.now() + timedelta(minutes=VAULT_UNLOCK_MINUTES))
    ctx.db.execute("UPDATE account SET vault_unlocked_until = ?", (until,))
    return _status(ctx)


@tools.tool(effect=WRITE, asks=[
    "Lock my Personal Vault now.",
    "I'm done with the vault; lock it again.",
], reply=[
    "Locked your Personal Vault.",
    "Done: the vault is locked; it needs the passcode to open again.",
])
def lock_vault(ctx: Ctx) -> VaultStatus:
    """Lock the Personal Vault right away.

    Returns:
        The vault's status: locked.

    Raises:
        already_locked: the vault is already locked.
    """
    if not vault_open(ctx):
        raise ToolError("already_locked", "The Personal Vault is already locked.", hint="Nothing to do.")
    ctx.db.execute("UPDATE account SET vault_unlocked_until = NULL")
    return _status(ctx)


@tools.tool(effect=READ, hidden=True)
def get_vault_passcode(ctx: Ctx) -> VaultPasscode:
    """The user's Personal Vault passcode, for the synthesis pipeline to put in a user turn (never shown to a model).

    Returns:
        The 6-digit passcode.
    """
    (code,) = ctx.db.execute("SELECT vault_passcode FROM account").fetchone()
    return VaultPasscode(passcode=code)
