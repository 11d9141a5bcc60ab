"""Social media tools: profiles, account search, followers, following and blocks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset

from .server import (
    Account,
    AccountId,
    AccountList,
    AccountSummary,
    BlockedAccountId,
    FollowedAccountId,
    Limit,
    GenuineAccountId,
    OtherAccountId,
    Query,
    account_model,
    account_summary,
    block_between,
    follows,
    me,
    require_can_see,
    require_not_blocked,
)

tools = Toolset("accounts")

DisplayName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=50)]
Bio = Annotated[str, StringConstraints(strip_whitespace=True, max_length=160)]
Location = Annotated[str, StringConstraints(strip_whitespace=True, max_length=60)]


class FollowResult(BaseModel):
    account_id: AccountId
    handle: str
    status: Literal["following", "requested", "not_following"] = Field(
        description="'requested': a private account has to approve the request first")
    followers_count: int


class BlockResult(BaseModel):
    account_id: AccountId
    handle: str
    blocked: bool
    follows_removed: int = Field(description="follows between you that the block removed (both ways)")


# ----- profiles -------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Show me my profile.",
    "Who is {account_id}? Do they follow me?",
    "How many followers does {account_id} have?",
], reply=[
    Ask("Your profile: {result.display_name} (@{result.handle}), {result.followers_count} followers, "
        "{result.following_count} following, {result.posts_count} posts.", account_id=None),
    Ask("{result.display_name} (@{result.handle}) has {result.followers_count} followers, and you follow each other.",
        **{"result.follows_you": True, "result.you_follow": True}),
    Ask("{result.display_name} (@{result.handle}) has {result.followers_count} followers; they follow you, but you "
        "don't follow them.", **{"result.follows_you": True, "result.you_follow": False}),
    Ask("{result.display_name} (@{result.handle}) has {result.followers_count} followers; you follow them, but they "
        "don't follow you.", **{"result.follows_you": False, "result.you_follow": True}),
    Ask("{result.display_name} (@{result.handle}) has {result.followers_count} followers; neither of you follows "
        "the other.", **{"result.follows_you": False, "result.you_follow": False}),
])
def get_profile(ctx: Ctx, account_id: OtherAccountId | None = None) -> Account:
    """Show a profile: the user's own, or another account's, with how it relates to the user.

    Args:
        account_id: ID of the account, such as 'USR-10005'; omit for the user's own profile.

    Returns:
        The profile (handle, name, bio, location, privacy, follower, following and post counts)
        and whether the user follows it, it follows the user, a follow request is pending, or
        either has blocked the other.

    Raises:
        not_found: no account has that ID.
    """
    return account_model(ctx, account_id if account_id is not None else me(ctx))


@tools.tool(effect=WRITE, asks=[
    "Change my bio to '{bio}'.",
    Ask("Make my account private.", is_private=True),
    Ask("Make my account public again.", is_private=False),
    "Update my display name to {display_name} and my location to {location}.",
    Ask("Only let people I follow send me messages.", messages_from="following"),
    Ask("Let anyone send me direct messages.", messages_from="everyone"),
], reply=[
    Ask("Your bio now reads '{bio}'.", display_name=None, location=None, is_private=None, messages_from=None),
    Ask("Your account is private now: only approved followers see your posts.", is_private=True, display_name=None,
        bio=None, location=None, messages_from=None),
    Ask("Your account is public again.", is_private=False, display_name=None, bio=None, location=None,
        messages_from=None),
    Ask("Your profile now shows {display_name}, in {location}.", bio=None, is_private=None, messages_from=None),
    Ask("Only people you follow can message you now.", messages_from="following", display_name=None, bio=None,
        location=None, is_private=None),
    Ask("Anyone can send you direct messages now.", messages_from="everyone", display_name=None, bio=None,
        location=None, is_private=None),
    "Your profile is updated: {result.display_name}, {result.location}; '{result.bio}'.",
], values={
    "display_name": [
        "Ana López", "Sam Carter", "Priya N.", "Jordan Lee", "Mia Chen", "Leo Martins",
    ],
    "bio": [
        "Runner, coffee snob, weekend baker.", "Product designer in Portland. Opinions my own.",
        "Trail miles and film photos.", "Learning to cook one recipe at a time.",
        "Reading, hiking, too many houseplants.", "Frontend dev. Cats. Bad puns.",
    ],
    "location": [
        "Portland, OR", "Austin, TX", "Brooklyn, NY", "Denver, CO", "Chicago, IL", "San Diego, CA",
    ],
})
def update_profile(ctx: Ctx, display_name: DisplayName | None = None, bio: Bio | None = None,
                   location: Location | None = None, is_private: bool | None = None,
                   messages_from: Literal["everyone", "following"] | None = None) -> Account:
    """Change the user's profile and privacy settings; only the fields given change.

    Args:
        display_name: the name shown on the profile, 1 to 50 characters, such as 'Maya Chen'.
        bio: the profile text, up to 160 characters, such as 'Runner and home cook.'; '' clears it.
        location: where the user is, such as 'Denver, CO'; '' clears it.
        is_private: true to make the account private (posts for followers only), false for public.
        messages_from: who may send the user direct messages: 'everyone' or 'following'.

    Returns:
        The user's profile as it is now.

    Raises:
        nothing_to_update: no field to change was given.
    """
    changes: dict[str, object] = {}
    if display_name is not None:
        changes["display_name"] = display_name
    if bio is not None:
        changes["bio"] = bio or None
    if location is not None:
        changes["location"] = location or None
    if is_private is not None:
        changes["is_private"] = int(is_private)
    if messages_from is not None:
        changes["dm_policy"] = messages_from
    if not changes:
        raise ToolError("nothing_to_update", "No field to change was given.",
                        hint="Pass display_name, bio, location, is_private or messages_from.")
    user = me(ctx)
    ctx.update("account", user, changes)
    return account_model(ctx, user)


class FollowList(AccountList):
    accounts_text: str = Field(description="the first accounts in words, such as '2 followers: Sofia Hall (@halls) "
                                           "and Olivia Nguyen (@olivia_nguyen; you follow each other)'")


class FoundAccounts(AccountList):
    accounts_text: str = Field(description="the first accounts in words, such as '1 account: Anna Khan (@anna.khan; "
                                           "you follow each other)'")


@tools.tool(effect=READ, asks=[
    "Find the account {query}.",
    "Look for accounts matching '{query}'.",
], reply=[
    "I found {result.accounts_text}.",
])
def search_accounts(ctx: Ctx, query: Query, limit: Limit = 20) -> FoundAccounts:
    """Find accounts by part of their handle or display name.

    Args:
        query: text to look for, such as 'chen' or '@maya'.
        limit: the most accounts to return, 1 to 100, such as 20.

    Returns:
        The matching accounts (ID, handle, name, verified, private, follow relations), verified
        and followed ones first, and how many matched.
    """
    text = query.lstrip("@").lower()
    rows = ctx.db.execute(
        "SELECT * FROM accounts WHERE is_me = 0 AND (instr(lower(handle), :q) > 0 OR instr(lower(display_name), :q) > 0) "
        "ORDER BY verified DESC, EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :me "
        "AND f.followee_id = account_id) DESC, handle", {"q": text, "me": me(ctx)}).fetchall()
    accounts = account_summary(ctx, rows[:limit])
    return FoundAccounts(accounts=accounts, total=len(rows), accounts_text=_accounts_text(accounts, len(rows), "account"))


def _follow_words(a: AccountSummary, known: str = "") -> str:
    """'Olivia Nguyen (@olivia_nguyen; you follow each other)', 'Rosa Lee (@leer; you follow them)';
    what the listing already says (`known`: among the user's own followers, that one 'follows_you';
    among those the user follows, that 'you_follow' them) goes without saying."""
    if a.you_follow is None:
        return "you"
    how = {(True, True): "; you follow each other", (True, False): "" if known == "you_follow" else "; you follow them",
           (False, True): "" if known == "follows_you" else "; follows you"}.get((a.you_follow, a.follows_you), "")
    return f"{a.display_name} (@{a.handle}{how})"


def _connections(ctx: Ctx, account_id: str | None, column: str, other: str, limit: int, noun: str,
                 shown: int = 5) -> FollowList:
    target = ctx.get("account", account_id) if account_id is not None else ctx.get("account", me(ctx))
    require_can_see(ctx, target)
    rows = ctx.db.execute(f"SELECT a.* FROM follows f JOIN accounts a ON a.account_id = f.{other} "  # noqa: S608
                          f"WHERE f.{column} = ? ORDER BY f.created_at DESC, a.account_id",
                          (target["account_id"],)).fetchall()
    accounts = account_summary(ctx, rows[:limit])
    known = "" if target["account_id"] != me(ctx) else "follows_you" if column == "followee_id" else "you_follow"
    # followers from outside the accounts listed count too (as the profile counts them): those listed are some
    outside = target["outside_followers"] if column == "followee_id" else 0
    return FollowList(accounts=accounts, total=len(rows),
                      accounts_text=_accounts_text(accounts, len(rows), noun, known, shown, outside))


def _accounts_text(accounts: list[AccountSummary], total: int, noun: str, known: str = "", shown: int = 5,
                   outside: int = 0) -> str:
    """'2 followers: Sofia Hall (@halls) and Olivia Nguyen (@olivia_nguyen; you follow each other)'; with
    followers from `outside` those listed, '249 followers, among them Sofia Hall (@halls), ...'."""
    said = [_follow_words(a, known) for a in accounts[:shown]]
    if outside and said:
        listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        return f"{total + outside:,} {noun}s, among them {listed}"
    said += [f"{total - shown} more"] if total > shown else []
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else ""
    return f"{total:,} {noun}{'' if total == 1 else 's'}: {listed}" if total else f"no {noun}s"


@tools.tool(effect=READ, asks=[
    "Who follows me?",
    "Who follows {account_id}?",
], reply=[
    Ask("You have {result.accounts_text}.", account_id=None),
    "{account_id} has {result.accounts_text}.",
])
def list_followers(ctx: Ctx, account_id: OtherAccountId | None = None, limit: Limit = 50) -> FollowList:
    """List the accounts that follow an account (the user's own by default), most recent first.

    Args:
        account_id: ID of the account, such as 'USR-10005'; omit for the user's followers.
        limit: the most accounts to return, 1 to 100, such as 50.

    Returns:
        The followers (ID, handle, name, follow relations with the user) and how many there are
        in this network.

    Raises:
        not_found: no account has that ID.
        blocked: the user blocked the account, or it blocked the user.
        private_account: the account is private and the user does not follow it.
    """
    return _connections(ctx, account_id, "followee_id", "follower_id", limit, "follower")


@tools.tool(effect=READ, asks=[
    "Who am I following?",
    "Which accounts does {account_id} follow?",
], reply=[
    Ask("You follow {result.accounts_text}.", account_id=None),
    "{account_id} follows {result.accounts_text}.",
])
def list_following(ctx: Ctx, account_id: OtherAccountId | None = None, limit: Limit = 50) -> FollowList:
    """List the accounts an account follows (the user's own by default), most recent first.

    Args:
        account_id: ID of the account, such as 'USR-10005'; omit for the accounts the user follows.
        limit: the most accounts to return, 1 to 100, such as 50.

    Returns:
        The accounts followed (ID, handle, name, follow relations with the user) and how many.

    Raises:
        not_found: no account has that ID.
        blocked: the user blocked the account, or it blocked the user.
        private_account: the account is private and the user does not follow it.
    """
    return _connections(ctx, account_id, "follower_id", "followee_id", limit, "account")


# ----- following --------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Follow {account_id}.",
    "I'd like to see posts from {account_id} in my feed, follow them.",
], reply=[
    Ask("Done: you're following {account_id} now.", **{"result.status": "following"}),
    Ask("You follow {account_id} now; their posts will show up in your feed.", **{"result.status": "following"}),
    Ask("{account_id} is private, so I sent a follow request; you'll follow them once they accept it.",
        **{"result.status": "requested"}),
])
def follow_account(ctx: Ctx, account_id: GenuineAccountId) -> FollowResult:
    """Follow an account. A private account gets a follow request it approves first (in about two hours).

    Args:
        account_id: ID of the account to follow, such as 'USR-10002'.

    Returns:
        The account and the new status: 'following', or 'requested' for a private account.

    Raises:
        not_found: no account has that ID.
        cannot_follow_self: the account is the user's own.
        blocked: the user blocked the account, or it blocked the user.
        already_following: the user already follows the account.
        request_pending: a follow request to this private account is already waiting.
    """
    target = ctx.get("account", account_id)
    user = me(ctx)
    if account_id == user:
        raise ToolError("cannot_follow_self", "You cannot follow yourself.")
    require_not_blocked(ctx, target)
    if follows(ctx, user, account_id):
        raise ToolError("already_following", f"You already follow @{target['handle']}.")
    if ctx.db.execute("SELECT 1 FROM follow_requests WHERE requester_id = ? AND target_id = ?",
                      (user, account_id)).fetchone():
        raise ToolError("request_pending", f"Your follow request to @{target['handle']} is still waiting for "
                        "their approval.", hint="Wait for them to answer, or withdraw it with unfollow_account.")
    if target["is_private"]:
        ctx.db.execute("INSERT INTO follow_requests (requester_id, target_id, created_at) VALUES (?, ?, ?)",
                       (user, account_id, ctx.now_iso()))
        status = "requested"
    else:
        ctx.db.execute("INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)",
                       (user, account_id, ctx.now_iso()))
        status = "following"
    profile = account_model(ctx, account_id)
    return FollowResult(account_id=account_id, handle=target["handle"], status=status,
                        followers_count=profile.followers_count)


@tools.tool(effect=WRITE, asks=[
    "Unfollow {account_id}.",
    "Stop following {account_id}, their posts aren't for me.",
    "Stop following {account_id}, or drop my request if they haven't accepted it yet.",
], reply=[
    # (true both of a follow ended and of a request withdrawn: the result does not say which it was)
    "Done: you're not following {account_id} anymore.",
    "Unfollowed {account_id}.",
])
def unfollow_account(ctx: Ctx, account_id: FollowedAccountId) -> FollowResult:
    """Stop following an account, or withdraw a pending follow request to it.

    Args:
        account_id: ID of the account, such as 'USR-10005'.

    Returns:
        The account, now with status 'not_following'.

    Raises:
        not_found: no account has that ID.
        not_following: the user neither follows the account nor has a request pending.
    """
    target = ctx.get("account", account_id)
    user = me(ctx)
    gone = ctx.db.execute("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", (user, account_id)).rowcount
    gone += ctx.db.execute("DELETE FROM follow_requests WHERE requester_id = ? AND target_id = ?",
                           (user, account_id)).rowcount
    if not gone:
        raise ToolError("not_following", f"You do not follow @{target['handle']}.")
    profile = account_model(ctx, account_id)
    return FollowResult(account_id=account_id, handle=target["handle"], status="not_following",
                        followers_count=profile.followers_count)


# ----- blocks -------------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Block {account_id}.",
    "Someone keeps harassing me: block {account_id}.",
], reply=[
    "Blocked {account_id}; that removed {result.follows_removed} follows between you.",
    "Done: {account_id} is blocked.",
])
def block_account(ctx: Ctx, account_id: OtherAccountId) -> BlockResult:
    """Block an account: its posts and comments vanish for the user, and follows both ways are removed.

    Args:
        account_id: ID of the account to block, such as 'USR-10005'.

    Returns:
        The account, now blocked, and how many follows the block removed.

    Raises:
        not_found: no account has that ID.
        cannot_block_self: the account is the user's own.
        already_blocked: the user already blocked the account.
    """
    target = ctx.get("account", account_id)
    user = me(ctx)
    if account_id == user:
        raise ToolError("cannot_block_self", "You cannot block yourself.")
    if block_between(ctx, account_id) == "you":
        raise ToolError("already_blocked", f"You already blocked @{target['handle']}.")
    ctx.db.execute("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                   (user, account_id, ctx.now_iso()))
    removed = ctx.db.execute("DELETE FROM follows WHERE (follower_id = :a AND followee_id = :b) OR "
                             "(follower_id = :b AND followee_id = :a)", {"a": user, "b": account_id}).rowcount
    ctx.db.execute("DELETE FROM follow_requests WHERE (requester_id = :a AND target_id = :b) OR "
                   "(requester_id = :b AND target_id = :a)", {"a": user, "b": account_id})
    return BlockResult(account_id=account_id, handle=target["handle"], blocked=True, follows_removed=removed)


@tools.tool(effect=WRITE, asks=[
    "Unblock {account_id}.",
    "I made up with {account_id}, please lift the block.",
], reply=[
    "Unblocked {account_id}.",
    "Done: {account_id} is no longer blocked.",
])
def unblock_account(ctx: Ctx, account_id: BlockedAccountId) -> BlockResult:
    """Unblock an account. Follows the block removed do not come back.

    Args:
        account_id: ID of the account to unblock, such as 'USR-10024'.

    Returns:
        The account, no longer blocked.

    Raises:
        not_found: no account has that ID.
        not_blocked: the user has not blocked the account.
    """
    target = ctx.get("account", account_id)
    gone = ctx.db.execute("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (me(ctx), account_id)).rowcount
    if not gone:
        raise ToolError("not_blocked", f"You have not blocked @{target['handle']}.")
    return BlockResult(account_id=account_id, handle=target["handle"], blocked=False, follows_removed=0)


@tools.tool(effect=READ, asks=[
    "Who have I blocked?",
    "Show me my blocked accounts.",
], reply=[
    "You've blocked {result.accounts_text}.",
])
def list_blocked_accounts(ctx: Ctx, limit: Limit = 50) -> FoundAccounts:
    """List the accounts the user has blocked, most recent first.

    Args:
        limit: the most accounts to return, 1 to 100, such as 50.

    Returns:
        The blocked accounts and how many there are.
    """
    rows = ctx.db.execute("SELECT a.* FROM blocks b JOIN accounts a ON a.account_id = b.blocked_id "
                          "WHERE b.blocker_id = ? ORDER BY b.created_at DESC, a.account_id", (me(ctx),)).fetchall()
    accounts = account_summary(ctx, rows[:limit])
    return FoundAccounts(accounts=accounts, total=len(rows), accounts_text=_accounts_text(accounts, len(rows), "account"))

