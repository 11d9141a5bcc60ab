"""Organizing: folders, labels and filters."""

from __future__ import annotations

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import quote

from .server import (
    AnyMailLabelId,
    Color,
    EmptyFolderId,
    Filter,
    FilterFolderId,
    FilterId,
    FilterList,
    Folder,
    FolderId,
    FolderList,
    KeptMessageId,
    Label,
    LabelId,
    LabelList,
    MessageId,
    MessageSummary,
    Name,
    Query,
    apply_filter,
    filter_matches,
    filter_model,
    filter_text,
    folder_row,
    summary,
)

tools = Toolset("folders")


class DeletedFolder(BaseModel):
    folder_id: str = Field(description="the ID the deleted folder had")
    name: str
    removed_filter_ids: list[str] = Field(description="filters that moved mail into the folder, deleted with it")


class Labeled(BaseModel):
    message: MessageSummary
    label_id: LabelId
    label_name: str


class FilterCreated(BaseModel):
    filter: Filter
    applied_to: list[MessageId] = Field(description="inbox messages the filter was applied to right away")
    total: int


class DeletedFilter(BaseModel):
    filter_id: str = Field(description="the ID the deleted filter had")
    name: str


def _folder(ctx: Ctx, folder_id: str) -> Folder:
    row = ctx.db.execute(
        "SELECT f.*, count(m.message_id) AS total, coalesce(sum(m.is_read = 0), 0) AS unread FROM folders f "
        "LEFT JOIN messages m ON m.folder_id = f.folder_id WHERE f.folder_id = ? GROUP BY f.folder_id",
        (folder_id,)).fetchone()
    return Folder(folder_id=row["folder_id"], name=row["name"], kind=row["kind"], total=row["total"],
                  unread=row["unread"])


def _label(ctx: Ctx, label_id: str) -> Label:
    row = ctx.db.execute(
        "SELECT l.*, count(m.message_id) AS total, coalesce(sum(m.is_read = 0), 0) AS unread FROM labels l "
        "LEFT JOIN message_labels x ON x.label_id = l.label_id LEFT JOIN messages m ON m.message_id = x.message_id "
        "WHERE l.label_id = ? GROUP BY l.label_id", (label_id,)).fetchone()
    return Label(label_id=row["label_id"], name=row["name"], color=row["color"], total=row["total"],
                 unread=row["unread"])


def _unique_folder_name(ctx: Ctx, name: str, exclude: str | None = None) -> None:
    clash = ctx.db.execute("SELECT folder_id, name FROM folders WHERE lower(name) = lower(?) AND folder_id != ?",
                           (name, exclude or "")).fetchone()
    if clash:
        raise ToolError("duplicate_name", f"There is already a folder named '{clash['name']}' ({clash['folder_id']}).",
                        hint="Pick another name, or use the existing folder.")


# ----- folders -----------------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "What folders do I have?",
    "How many unread emails are in each of my folders?",
], reply=[
    # One reply a question: the folders; the unread mail in each.
    "You have {result.total} folders: {result.folders_text}.",
    "Unread mail by folder: {result.unread_text}.",
])
def list_folders(ctx: Ctx) -> FolderList:
    """List every folder, system ones first, with how many messages and unread messages each holds.

    Returns:
        The folders (ID, name, kind 'system' or 'custom', total and unread counts).
    """
    ids = [r[0] for r in ctx.db.execute("SELECT folder_id FROM folders ORDER BY kind DESC, created_at, folder_id")]
    folders = [_folder(ctx, f) for f in ids]

    def listed(said: list[str]) -> str:
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return FolderList(folders=folders, total=len(ids),
                      folders_text=listed([f"{f.name} ({f.total or 'no'} email{'' if f.total == 1 else 's'})"
                                           for f in folders]),
                      unread_text=listed([f"{f.name}: {f.unread} unread" for f in folders]))


@tools.tool(effect=WRITE, asks=[
    "Create a folder called '{name}'.",
    "Make me a new mail folder named '{name}'.",
], reply=[
    "Created the folder '{name}'.",
    "Done: you have a new folder, '{name}'.",
], values={"name": ["Receipts", "Travel", "Clients", "Newsletters", "Taxes 2026", "Projects", "Family",
                    "Job applications", "Invoices", "Follow up"]})
def create_folder(ctx: Ctx, name: Name) -> Folder:
    """Create a custom folder.

    Args:
        name: the folder's name, unique regardless of case, such as 'Taxes 2025'.

    Returns:
        The new folder with its ID.

    Raises:
        duplicate_name: a folder of that name (including a system folder such as 'Inbox') exists.
    """
    _unique_folder_name(ctx, name)
    folder_id = ctx.new_id("FLD")
    ctx.db.execute("INSERT INTO folders (folder_id, name, kind, created_at) VALUES (?, ?, 'custom', ?)",
                   (folder_id, name, ctx.now_iso()))
    return _folder(ctx, folder_id)


@tools.tool(effect=WRITE, asks=[
    "Rename {folder_id} to '{name}'.",
    "Call {folder_id} '{name}' from now on.",
], reply=[
    "Renamed {folder_id} to '{name}'.",
    "Done: {folder_id} is now called '{name}'.",
], values={
    # A new name that suits whatever folder is renamed ('Newsletters' to 'Travel' would not).
    "name": ["Archive 2025", "Old mail", "Misc", "Keep for now", "Done", "Reference"],
})
def rename_folder(ctx: Ctx, folder_id: FolderId, name: Name) -> Folder:
    """Rename a custom folder; its messages and the filters that use it are kept.

    Args:
        folder_id: ID of the custom folder, such as 'FLD-10001'.
        name: the new name, such as 'Receipts 2026'.

    Returns:
        The renamed folder.

    Raises:
        not_found: no folder has that ID.
        system_folder: the folder is a system folder, which cannot be renamed.
        duplicate_name: another folder already has that name.
    """
    row = folder_row(ctx, folder_id)
    if row["kind"] == "system":
        raise ToolError("system_folder", f"{row['name']} is a system folder and cannot be renamed.")
    _unique_folder_name(ctx, name, exclude=row["folder_id"])
    ctx.db.execute("UPDATE folders SET name = ? WHERE folder_id = ?", (name, row["folder_id"]))
    return _folder(ctx, row["folder_id"])


@tools.tool(effect=WRITE, asks=[
    "Delete {folder_id}.",
    "I don't need {folder_id} anymore, remove it.",
], reply=[
    "Deleted the folder '{result.name}'.",
    "Done: the folder '{result.name}' is gone.",
])
def delete_folder(ctx: Ctx, folder_id: EmptyFolderId) -> DeletedFolder:
    """Delete an empty custom folder; filters that move mail into it are deleted too.

    Args:
        folder_id: ID of the custom folder, such as 'FLD-10001'.

    Returns:
        The deleted folder's ID and name, and the filters removed with it.

    Raises:
        not_found: no folder has that ID.
        system_folder: the folder is a system folder, which cannot be deleted.
        folder_not_empty: the folder still holds messages (move them elsewhere first).
    """
    row = folder_row(ctx, folder_id)
    if row["kind"] == "system":
        raise ToolError("system_folder", f"{row['name']} is a system folder and cannot be deleted.")
    (count,) = ctx.db.execute("SELECT count(*) FROM messages WHERE folder_id = ?", (row["folder_id"],)).fetchone()
    if count:
        raise ToolError("folder_not_empty", f"{row['name']} still holds {count} message{'s' if count != 1 else ''}.",
                        hint="Move them out with move_message (or archive them), then delete the folder.")
    filters = [r[0] for r in ctx.db.execute(
        "SELECT filter_id FROM filters WHERE move_to_folder_id = ? ORDER BY filter_id", (row["folder_id"],))]
    ctx.db.execute("DELETE FROM filters WHERE move_to_folder_id = ?", (row["folder_id"],))
    ctx.db.execute("UPDATE messages SET trashed_from = NULL WHERE trashed_from = ?", (row["folder_id"],))
    ctx.db.execute("DELETE FROM folders WHERE folder_id = ?", (row["folder_id"],))
    return DeletedFolder(folder_id=row["folder_id"], name=row["name"], removed_filter_ids=filters)


# ----- labels ------------------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "What labels do I have?",
    "Show my labels and how many emails carry each.",
], reply=[
    "You have {result.total} labels: {result.labels_text}.",
])
def list_labels(ctx: Ctx) -> LabelList:
    """List the user's labels with how many messages (and unread messages) carry each.

    Returns:
        The labels (ID, name, color, total and unread counts).
    """
    ids = [r[0] for r in ctx.db.execute("SELECT label_id FROM labels ORDER BY name COLLATE NOCASE, label_id")]
    labels = [_label(ctx, lid) for lid in ids]
    said = [f"{lb.name} ({lb.total} email{'' if lb.total == 1 else 's'}" + (f", {lb.unread} unread" if lb.unread else "")
            + ")" for lb in labels]
    return LabelList(labels=labels, total=len(ids),
                     labels_text=(said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]) if said
                     else "none")


@tools.tool(effect=WRITE, asks=[
    "Create a label called '{name}'.",
    "Add a new {color} label named '{name}'.",
], reply=[
    "Created the label '{name}'.",
    "Done: the {result.color} label '{name}' is ready to use.",
], values={"name": ["Urgent", "Waiting on reply", "Finance", "Travel", "Read later", "Clients", "Family",
                    "Receipts", "Important", "Team"]})
def create_label(ctx: Ctx, name: Name, color: Color = "gray") -> Label:
    """Create a label to tag messages with.

    Args:
        name: the label's name, unique regardless of case, such as 'Taxes'.
        color: one of 'gray', 'red', 'orange', 'yellow', 'green', 'blue', 'purple'; default 'gray'.

    Returns:
        The new label with its ID.

    Raises:
        duplicate_name: a label of that name already exists.
    """
    clash = ctx.db.execute("SELECT label_id FROM labels WHERE lower(name) = lower(?)", (name,)).fetchone()
    if clash:
        raise ToolError("duplicate_name", f"There is already a label named {quote(name)} ({clash[0]}).")
    label_id = ctx.new_id("LBL")
    ctx.db.execute("INSERT INTO labels (label_id, name, color, created_at) VALUES (?, ?, ?, ?)",
                   (label_id, name, color, ctx.now_iso()))
    return _label(ctx, label_id)


@tools.tool(effect=WRITE, asks=[
    "Label {message_id} with {label_id}.",
    "Tag {message_id} with {label_id}.",
], reply=[
    "Added {label_id} to {message_id}.",
    "Done: {message_id} now carries {label_id}.",
])
def label_message(ctx: Ctx, message_id: KeptMessageId, label_id: AnyMailLabelId) -> Labeled:
    """Put a label on a message (it stays in its folder).

    Args:
        message_id: ID of the message, such as 'MSG-10042'.
        label_id: ID of the label, such as 'LBL-10001'.

    Returns:
        The message with its labels, and the label added.

    Raises:
        not_found: the message or the label does not exist.
        already_labeled: the message already carries that label.
    """
    row = ctx.get("message", message_id)
    label = ctx.get("label", label_id)
    if ctx.db.execute("SELECT 1 FROM message_labels WHERE message_id = ? AND label_id = ?",
                      (message_id, label_id)).fetchone():
        raise ToolError("already_labeled", f"{message_id} already carries the label '{label['name']}'.")
    ctx.db.execute("INSERT INTO message_labels (message_id, label_id) VALUES (?, ?)", (message_id, label_id))
    return Labeled(message=summary(ctx, ctx.get("message", row["message_id"])), label_id=label_id,
                   label_name=label["name"])


@tools.tool(effect=WRITE, asks=[
    "Take {label_id} off {message_id}.",
    "{message_id} shouldn't carry {label_id}, remove it.",
], reply=[
    "Removed {label_id} from {message_id}.",
    "Done: {message_id} no longer carries {label_id}.",
])
def unlabel_message(ctx: Ctx, message_id: MessageId, label_id: LabelId) -> Labeled:
    """Remove a label from a message.

    Args:
        message_id: ID of the message, such as 'MSG-10042'.
        label_id: ID of the label, such as 'LBL-10001'.

    Returns:
        The message with its remaining labels, and the label removed.

    Raises:
        not_found: the message or the label does not exist.
        not_labeled: the message does not carry that label.
    """
    row = ctx.get("message", message_id)
    label = ctx.get("label", label_id)
    cur = ctx.db.execute("DELETE FROM message_labels WHERE message_id = ? AND label_id = ?", (message_id, label_id))
    if not cur.rowcount:
        raise ToolError("not_labeled", f"{message_id} does not carry the label '{label['name']}'.")
    return Labeled(message=summary(ctx, ctx.get("message", row["message_id"])), label_id=label_id,
                   label_name=label["name"])


# ----- filters -----------------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "What mail filters do I have set up?",
    "Show me my email rules.",
], reply=[
    "You have {result.total} filters, run in this order: {result.filters_text}.",
])
def list_filters(ctx: Ctx) -> FilterList:
    """List the filters applied to arriving mail, in the order they run.

    Returns:
        The filters with their conditions (sender or subject contains) and actions (move to a
        folder, add a label, mark read, star).
    """
    rows = ctx.db.execute("SELECT * FROM filters ORDER BY created_at, filter_id").fetchall()
    filters = [filter_model(ctx, r) for r in rows]
    return FilterList(filters=filters, total=len(rows),
                      filters_text="; ".join(filter_text(f) for f in filters) or "none")


@tools.tool(effect=WRITE, asks=[
    "Make a filter called '{name}' so mail from {from_contains} goes to {move_to_folder_id}.",
    "Create a rule named '{name}': anything with '{subject_contains}' in the subject gets {add_label_id}.",
    Ask("Set up a filter '{name}' that stars email from {from_contains} and marks it read, and apply it to "
        "what's already in my mailbox.", star=True, mark_read=True, apply_to_existing=True),
    Ask("Add a rule '{name}' that marks mail with '{subject_contains}' in the subject as read.", mark_read=True),
], reply=[
    Ask("Created the filter '{name}'; it also went through your mailbox and matched {result.total} emails already "
        "there.", apply_to_existing=True),
    "Done: the filter '{name}' will handle new mail from now on.",
    "Created the filter '{name}'; it applies to mail that arrives from now on.",
], values={"name, from_contains, subject_contains": [
    ("Newsletters", "substack.com", "newsletter"), ("Receipts", "amazon.com", "receipt"),
    ("Travel bookings", "delta.com", "confirmation"), ("Invoices", "billing", "invoice"),
    ("GitHub reviews", "github.com", "pull request"), ("Calendar invites", "calendar-notification", "invitation"),
    ("Security alerts", "accounts.google.com", "security alert"), ("Bank alerts", "alerts", "statement")]})
def create_filter(ctx: Ctx, name: Name, from_contains: Query | None = None, subject_contains: Query | None = None,
                  move_to_folder_id: FilterFolderId | None = None, add_label_id: AnyMailLabelId | None = None,
                  mark_read: bool = False, star: bool = False, apply_to_existing: bool = False) -> FilterCreated:
    """Create a filter for arriving mail: when every condition given matches, its actions run.

    Conditions match case-insensitively by substring. Filters run in creation order on each
    arriving message (and on copies of mail the user sends to themselves).

    Args:
        name: a name for the filter, unique, such as 'Travel bookings'.
        from_contains: part of the sender's name or address, such as 'delta.com'.
        subject_contains: part of the subject, such as 'invoice'.
        move_to_folder_id: move matching mail to this folder, such as 'FLD-10001' or 'archive'.
        add_label_id: put this label on matching mail, such as 'LBL-10003'.
        mark_read: mark matching mail as read, such as true; default false.
        star: star matching mail, such as true; default false.
        apply_to_existing: also apply it now to matching received messages in the inbox; default false.

    Returns:
        The filter, and the inbox messages it was applied to right away.

    Raises:
        missing_condition: neither `from_contains` nor `subject_contains` was given.
        missing_action: no action was given (move, label, mark read or star).
        not_found: the folder or the label does not exist.
        invalid_destination: the folder is 'drafts', 'scheduled' or 'sent'.
        duplicate_name: a filter of that name already exists.
    """
    if from_contains is None and subject_contains is None:
        raise ToolError("missing_condition", "A filter needs a condition: from_contains or subject_contains.")
    if move_to_folder_id is None and add_label_id is None and not mark_read and not star:
        raise ToolError("missing_action",
                        "A filter needs an action: move_to_folder_id, add_label_id, mark_read or star.")
    folder = folder_row(ctx, move_to_folder_id) if move_to_folder_id is not None else None
    if add_label_id is not None:
        ctx.get("label", add_label_id)
    if folder is not None and folder["folder_id"] in ("drafts", "scheduled", "sent"):
        raise ToolError("invalid_destination", f"A filter cannot move arriving mail into {folder['name']}.",
                        hint="Pick 'archive', 'trash', 'spam' or one of your folders.")
    if ctx.db.execute("SELECT 1 FROM filters WHERE lower(name) = lower(?)", (name,)).fetchone():
        raise ToolError("duplicate_name", f"There is already a filter named {quote(name)}.")
    filter_id = ctx.new_id("FIL")
    ctx.db.execute(
        "INSERT INTO filters (filter_id, name, from_contains, subject_contains, move_to_folder_id, add_label_id, "
        "mark_read, star, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (filter_id, name, from_contains, subject_contains, folder["folder_id"] if folder else None, add_label_id,
         int(mark_read), int(star), ctx.now_iso()))
    row = ctx.db.execute("SELECT * FROM filters WHERE filter_id = ?", (filter_id,)).fetchone()
    applied: list[str] = []
    if apply_to_existing:
        for m in ctx.db.execute("SELECT * FROM messages WHERE folder_id = 'inbox' AND status = 'received' "
                                "ORDER BY sent_at, message_id").fetchall():
            if filter_matches(row, m):
                apply_filter(ctx, row, m["message_id"])
                applied.append(m["message_id"])
    return FilterCreated(filter=filter_model(ctx, row), applied_to=applied, total=len(applied))


@tools.tool(effect=WRITE, asks=[
    "Delete {filter_id}.",
    "Stop {filter_id} from running, remove it.",
], reply=[
    "Deleted the filter '{result.name}'.",
    "Done: '{result.name}' won't touch new mail any more.",
])
def delete_filter(ctx: Ctx, filter_id: FilterId) -> DeletedFilter:
    """Delete a filter; mail it already filed stays where it is.

    Args:
        filter_id: ID of the filter, such as 'FIL-10001'.

    Returns:
        The deleted filter's ID and name.

    Raises:
        not_found: no filter has that ID.
    """
    row = ctx.db.execute("SELECT * FROM filters WHERE filter_id = ?", (filter_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No filter has ID {quote(filter_id)}.", hint="list_filters shows your filters.")
    ctx.db.execute("DELETE FROM filters WHERE filter_id = ?", (filter_id,))
    return DeletedFilter(filter_id=filter_id, name=row["name"])
