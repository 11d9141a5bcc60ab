"""Social media tools: the feed, posts, search, hashtags; creating, editing and deleting posts."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_time, quote

from .server import (
    POSTS,
    READABLE,
    Hashtag,
    Limit,
    OtherAccountId,
    OwnPostId,
    Post,
    PostId,
    PostList,
    PostText,
    Query,
    ReplyPolicy,
    Visibility,
    editable_until,
    me,
    post_model,
    post_models,
    posts_said,
    readable_post,
    require_can_see,
)
from .world import DUPLICATE_WINDOW_HOURS, hashtags_of

tools = Toolset("posts")

MAX_SCHEDULE_DAYS = 90
# Posts people write, offered to both tools that write a post's text.
POST_TEXTS = [
    "Sunday long run done! #running", "Finally tried the new ramen place downtown. Worth the wait. #foodie",
    "Anyone have a good sourdough starter tip? #baking", "Sunrise hike this morning, legs are toast. #hiking",
    "Finished a great book this weekend, recommendations welcome. #books", "New plant, who dis? #houseplants",
    "Coffee first, then emails. #mondaymotivation", "Farmers market haul: peaches and heirloom tomatoes. #summer",
]


class HashtagCount(BaseModel):
    hashtag: Hashtag
    name: str = Field(description="the hashtag as written in posts, such as '#travel'")
    posts: int = Field(description="posts using it in the window")
    accounts: int = Field(description="distinct accounts posting it in the window")


class TrendingList(BaseModel):
    hashtags: list[HashtagCount]
    days: int
    total: int
    hashtags_text: str = Field(description="the top hashtags in words, such as '#travel (22 posts from 10 accounts), "
                                           "#running (11 posts from 6 accounts) and ...'")


def _hashtags_text(tags: list[HashtagCount], shown: int = 5) -> str:
    said = [f"{t.name} ({t.posts} post{'' if t.posts == 1 else 's'}"
            + (f" from {t.accounts} accounts)" if t.accounts > 1 else ")") for t in tags[:shown]]
    return (said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]) if said else "no hashtags"


class HashtagPosts(BaseModel):
    hashtag: Hashtag
    posts: list[Post]
    total: int = Field(description="how many readable posts use it, before `limit`")
    said: str = Field("", description="the posts as people read them: \"3 posts: @ana: 'Sunny day!'; ...\"")


# ----- reading ---------------------------------------------------------------------------------------


class PostDetail(Post):
    author_text: str = Field(description="who posted it, such as 'Ana Mendoza (@anam_travels)', or 'you'")


@tools.tool(effect=READ, asks=[
    "What's new in my feed?",
    "Show me the latest {limit} posts in my feed.",
], reply=[
    "{result.said}.",
])
def get_feed(ctx: Ctx, limit: Limit = 20) -> PostList:
    """The user's home feed: published posts of the accounts they follow and their own, newest first.

    Posts of blocked accounts never appear.

    Args:
        limit: the most posts to return, 1 to 100, such as 20.

    Returns:
        The posts (ID, author, text, hashtags, visibility, time, like and comment counts, whether
        the user liked them) and how many the feed holds.
    """
    user = me(ctx)
    rows = ctx.db.execute(
        POSTS + f" WHERE {READABLE} AND (p.author_id = :me OR EXISTS (SELECT 1 FROM follows f2 "
        "WHERE f2.follower_id = :me AND f2.followee_id = p.author_id)) ORDER BY p.created_at DESC, p.post_id DESC",
        {"me": user}).fetchall()
    return PostList(posts=post_models(ctx, rows[:limit]), total=len(rows))


@tools.tool(effect=READ, asks=[
    "Show me my posts.",
    "What has {account_id} posted lately?",
    Ask("Do I have any scheduled posts?", scheduled_only=True),
], reply=[
    "{result.said}.",
])
def list_posts(ctx: Ctx, account_id: OtherAccountId | None = None, scheduled_only: bool = False,
               limit: Limit = 20) -> PostList:
    """List one account's posts, newest first: the user's own (scheduled ones included) by default.

    Args:
        account_id: ID of the account, such as 'USR-10005'; omit for the user's own posts.
        scheduled_only: only the user's own posts scheduled for later (default false).
        limit: the most posts to return, 1 to 100, such as 20.

    Returns:
        The posts the user may read and how many there are.

    Raises:
        not_found: no account has that ID.
        blocked: the user blocked the account, or it blocked the user.
        private_account: the account is private and the user does not follow it.
    """
    user = me(ctx)
    author = ctx.get("account", account_id if account_id is not None else user)
    require_can_see(ctx, author)
    if author["account_id"] == user:
        where = "p.author_id = :me AND p.status " + ("= 'scheduled'" if scheduled_only else
                                                      "IN ('published', 'scheduled')")
    elif scheduled_only:  # nobody sees another account's scheduled posts
        return PostList(posts=[], total=0)
    else:
        where = f"p.author_id = :author AND {READABLE}"
    rows = ctx.db.execute(POSTS + f" WHERE {where} ORDER BY p.created_at DESC, p.post_id DESC",
                          {"me": user, "author": author["account_id"]}).fetchall()
    return PostList(posts=post_models(ctx, rows[:limit]), total=len(rows))


@tools.tool(effect=READ, asks=[
    "Open {post_id}.",
    "How many likes does {post_id} have?",
], reply=[
    Ask("{result.author_text} posted: '{result.text}'. It has {result.like_count} likes and no comments yet.",
        **{"result.comment_count": 0}),
    "{result.author_text} posted: '{result.text}'. It has {result.like_count} likes and {result.comment_count} "
    "comments.",
])
def get_post(ctx: Ctx, post_id: PostId) -> PostDetail:
    """Show one post with its hashtags, like and comment counts.

    Args:
        post_id: ID of the post, such as 'PST-10042'.

    Returns:
        The post (author, text, hashtags, visibility, who may comment, status, times, like and
        comment counts, whether the user liked it).

    Raises:
        not_found: no post has that ID, or it was deleted or removed (or is someone else's scheduled post).
        blocked: the author blocked the user, or the user blocked the author.
        private_account: the post is for its author's followers and the user does not follow them.
    """
    readable_post(ctx, post_id)
    post = post_model(ctx, post_id)
    author = "you" if post.author_id == me(ctx) else f"{post.author_name} (@{post.author_handle})"
    return PostDetail(**post.model_dump(), author_text=author)


@tools.tool(effect=READ, asks=[
    "Search posts for '{query}'.",
    "Find posts that mention '{query}'.",
], reply=[
    "{result.said}.",
])
def search_posts(ctx: Ctx, query: Query, limit: Limit = 20) -> PostList:
    """Search the posts the user may read for a word or phrase, newest first.

    Args:
        query: text to look for, such as 'half marathon'.
        limit: the most posts to return, 1 to 100, such as 20.

    Returns:
        The matching posts and how many matched.
    """
    rows = ctx.db.execute(POSTS + f" WHERE {READABLE} AND instr(lower(p.text), :q) > 0 "
                          "ORDER BY p.created_at DESC, p.post_id DESC", {"me": me(ctx), "q": query.lower()}).fetchall()
    return PostList(posts=post_models(ctx, rows[:limit]), total=len(rows))


def _tag(value: str) -> str:
    return value.strip().lstrip("#").lower()


@tools.tool(effect=READ, asks=[
    "Show me posts with {hashtag}.",
    "What are people saying under {hashtag}?",
], reply=[
    "{result.said}.",
])
def get_hashtag_posts(ctx: Ctx, hashtag: Hashtag, limit: Limit = 20) -> HashtagPosts:
    """List the readable posts that use a hashtag, newest first.

    Args:
        hashtag: the hashtag, with or without '#', such as 'running'.
        limit: the most posts to return, 1 to 100, such as 20.

    Returns:
        The hashtag, its posts and how many there are.

    Raises:
        not_found: the hashtag has never been used.
    """
    tag = _tag(hashtag)
    if ctx.db.execute("SELECT 1 FROM hashtags WHERE tag = ?", (tag,)).fetchone() is None:
        raise ToolError("not_found", f"Nobody has used the hashtag #{tag[:40]}.",
                        hint="get_trending_hashtags shows hashtags in use; search_posts searches text.")
    rows = ctx.db.execute(POSTS + f" WHERE {READABLE} AND EXISTS (SELECT 1 FROM post_hashtags h WHERE "
                          "h.post_id = p.post_id AND h.tag = :tag) ORDER BY p.created_at DESC, p.post_id DESC",
                          {"me": me(ctx), "tag": tag}).fetchall()
    shown = post_models(ctx, rows[:limit])
    return HashtagPosts(hashtag=tag, posts=shown, total=len(rows), said=posts_said(shown, len(rows)))


@tools.tool(effect=READ, asks=[
    "What's trending right now?",
    "What were the top hashtags over the last {days} days?",
], reply=[
    Ask("Trending this week: {result.hashtags_text}.", days=7),
    "The top hashtags over the last {days} days: {result.hashtags_text}.",
])
def get_trending_hashtags(ctx: Ctx, days: Annotated[int, Field(ge=1, le=30)] = 7, limit: Limit = 10) -> TrendingList:
    """The hashtags used most in the posts the user may read over the last few days.

    Args:
        days: how many days back to count, 1 to 30, such as 7.
        limit: the most hashtags to return, 1 to 100, such as 10.

    Returns:
        The hashtags with how many posts and accounts used them, most used first.
    """
    since = iso(ctx.now() - timedelta(days=days))
    rows = ctx.db.execute(
        "SELECT h.tag, count(*) AS posts, count(DISTINCT p.author_id) AS accounts FROM post_hashtags h "
        f"JOIN posts p ON p.post_id = h.post_id JOIN accounts a ON a.account_id = p.author_id WHERE {READABLE} "
        "AND p.created_at >= :since GROUP BY h.tag ORDER BY posts DESC, accounts DESC, h.tag",
        {"me": me(ctx), "since": since}).fetchall()
    tags = [HashtagCount(hashtag=r["tag"], name=f"#{r['tag']}", posts=r["posts"], accounts=r["accounts"])
            for r in rows[:limit]]
    return TrendingList(hashtags=tags, days=days, total=len(rows), hashtags_text=_hashtags_text(tags))


# ----- writing -------------------------------------------------------------------------------------


def _tag_post(ctx: Ctx, post_id: str, text: str) -> None:
    ctx.db.execute("DELETE FROM post_hashtags WHERE post_id = ?", (post_id,))
    for tag in hashtags_of(text):
        ctx.db.execute("INSERT OR IGNORE INTO hashtags (tag) VALUES (?)", (tag,))
        ctx.db.execute("INSERT INTO post_hashtags (post_id, tag) VALUES (?, ?)", (post_id, tag))


def _schedule_time(ctx: Ctx, value: str) -> str:
    at = parse_time(value, "scheduled_for")
    if at <= ctx.now():
        raise ToolError("past_date", f"{iso(at)} is not in the future; it is now {ctx.now_iso()}.",
                        hint="Omit scheduled_for to post right away.")
    if at > ctx.now() + timedelta(days=MAX_SCHEDULE_DAYS):
        raise ToolError("too_far_ahead", f"Posts can be scheduled at most {MAX_SCHEDULE_DAYS} days ahead.")
    return iso(at)


@tools.tool(effect=WRITE, asks=[
    "Post this: {text}",
    Ask("Share '{text}' with my followers only.", visibility="followers"),
    "Schedule a post saying '{text}' for {scheduled_for}.",
    Ask("Post '{text}', and only let people I follow comment on it.", reply_policy="following"),
], reply=[
    Ask("Shared it with your followers only; the post is {result.status}.", visibility="followers"),
    Ask("Your post is {result.status}; only people you follow can comment on it.", reply_policy="following"),
    Ask("Done: your post is live.", scheduled_for=None, visibility="public", reply_policy="everyone"),
    Ask("Posted: '{text}'.", scheduled_for=None, visibility="public", reply_policy="everyone"),
    "Your post is scheduled for {scheduled_for}.",
    "Done: '{text}' goes out on {scheduled_for}.",
], values={
    "text": POST_TEXTS,
})
def create_post(ctx: Ctx, text: PostText, visibility: Visibility = "public", reply_policy: ReplyPolicy = "everyone",
                scheduled_for: str | None = None) -> Post:
    """Publish a post from the user's account now, or schedule it for later.

    Hashtags ('#running') in the text are indexed.

    Args:
        text: the post, 1 to 280 characters, such as 'Sunday long run done! #running'.
        visibility: 'public' (the default) or 'followers' (only the user's followers see it).
        reply_policy: who may comment: 'everyone' (the default) or 'following' (only accounts the user follows).
        scheduled_for: a local time to publish it at, such as '2026-03-17T08:00:00', up to 90 days ahead;
            omit to publish now.

    Returns:
        The new post with its ID and status ('published' or 'scheduled').

    Raises:
        duplicate_post: the user posted (or scheduled) the same text within the last 24 hours.
        invalid_time: `scheduled_for` is malformed or carries a UTC offset.
        past_date: `scheduled_for` is not in the future.
        too_far_ahead: `scheduled_for` is more than 90 days ahead.
    """
    user = me(ctx)
    since = iso(ctx.now() - timedelta(hours=DUPLICATE_WINDOW_HOURS))
    same = ctx.db.execute("SELECT post_id FROM posts WHERE author_id = ? AND status IN ('published', 'scheduled') "
                          "AND lower(trim(text)) = lower(?) AND created_at >= ?", (user, text, since)).fetchone()
    if same:
        raise ToolError("duplicate_post", f"You already posted this text ({same[0]}) in the last 24 hours.",
                        hint="Change the wording, or edit the existing post.")
    when = _schedule_time(ctx, scheduled_for) if scheduled_for is not None else ctx.now_iso()
    post_id = ctx.new_id("PST")
    ctx.db.execute("INSERT INTO posts (post_id, author_id, text, visibility, reply_policy, status, created_at, "
                   "edited_at, violates) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0)",
                   (post_id, user, text, visibility, reply_policy,
                    "scheduled" if scheduled_for is not None else "published", when))
    _tag_post(ctx, post_id, text)
    return post_model(ctx, post_id)


def _own_post(ctx: Ctx, post_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = ctx.db.execute("SELECT p.*, a.handle FROM posts p JOIN accounts a ON a.account_id = p.author_id "
                         "WHERE p.post_id = ?", (post_id,)).fetchone()
    if row is None or row["status"] in ("deleted", "removed"):
        raise ToolError("not_found", f"No post {quote(post_id)} is available.",
                        hint="list_posts shows the user's posts; IDs look like 'PST-10042'.")
    if row["author_id"] != me(ctx):
        raise ToolError("not_author", f"That post is by @{row['handle']}; you can only change your own posts.")
    return row


@tools.tool(effect=WRITE, asks=[
    "Rewrite {post_id} to say '{text}'.",
    Ask("Change {post_id} to followers only.", visibility="followers"),
    Ask("Make {post_id} public.", visibility="public"),
    Ask("Only let people I follow comment on {post_id}.", reply_policy="following"),
], reply=[
    Ask("{post_id} now says '{text}'.", visibility=None, reply_policy=None),
    # (a reply cannot bind `text`, the name of an Ask's own wording; the phrasings that change the
    # visibility or the reply policy leave the text as it is)
    Ask("{post_id} is for your followers only now.", visibility="followers", reply_policy=None),
    Ask("{post_id} is public now.", visibility="public", reply_policy=None),
    Ask("Only people you follow can comment on {post_id} now.", reply_policy="following", visibility=None),
    "Updated {post_id}: {result.visibility}, replies from {result.reply_policy}.",
], values={
    "text": POST_TEXTS,
})
def edit_post(ctx: Ctx, post_id: OwnPostId, text: PostText | None = None, visibility: Visibility | None = None,
              reply_policy: ReplyPolicy | None = None) -> Post:
    """Edit one of the user's posts. A published post can be edited for 60 minutes after it was
    posted; a scheduled post until it publishes.

    Args:
        post_id: ID of the user's post, such as 'PST-10255'.
        text: the new text, 1 to 280 characters, such as 'Sunday long run done! #running'.
        visibility: 'public' or 'followers'.
        reply_policy: who may comment: 'everyone' or 'following'.

    Returns:
        The post as it is now, with when it was edited.

    Raises:
        not_found: no post has that ID, or it was deleted or removed.
        not_author: the post is someone else's.
        nothing_to_update: no field to change was given.
        edit_window_closed: the post was published more than 60 minutes ago.
    """
    row = _own_post(ctx, post_id)
    changes = {k: v for k, v in (("text", text), ("visibility", visibility), ("reply_policy", reply_policy))
               if v is not None}
    if not changes:
        raise ToolError("nothing_to_update", "No field to change was given.",
                        hint="Pass text, visibility or reply_policy.")
    if row["status"] == "published" and ctx.now() > editable_until(row):
        raise ToolError("edit_window_closed", f"{post_id} was posted at {row['created_at']}; posts can be edited "
                        "for 60 minutes only.", hint="Delete it and post again, if the user wants.")
    if row["status"] == "published":
        changes["edited_at"] = ctx.now_iso()
    ctx.update("post", post_id, changes)
    if text is not None:
        _tag_post(ctx, post_id, text)
    return post_model(ctx, post_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {post_id}.",
    "Take down {post_id}, I regret posting it.",
    "Remove {post_id} from my profile.",
], reply=[
    "Deleted {post_id}.",
    "Done: {post_id} is gone.",
])
def delete_post(ctx: Ctx, post_id: OwnPostId) -> Post:
    """Delete one of the user's posts (or cancel a scheduled one); it disappears from every feed.

    Args:
        post_id: ID of the user's post, such as 'PST-10255'.

    Returns:
        The post, now with status 'deleted'.

    Raises:
        not_found: no post has that ID, or it was already deleted or removed.
        not_author: the post is someone else's.
    """
    _own_post(ctx, post_id)
    ctx.db.execute("UPDATE posts SET status = 'deleted' WHERE post_id = ?", (post_id,))
    return post_model(ctx, post_id)
