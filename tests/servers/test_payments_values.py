"""The payments server's subsets: money goes to and from people, invoices go to clients."""

from __future__ import annotations

from prove.env import registry

SERVER = registry.get("payments")


def _drawn(world: int, tool: str, param: str) -> list[tuple]:
    where = next(p.where for p in SERVER.tools[tool].params if p.name == param)
    assert where is not None
    return SERVER.template(world).db.execute(f"SELECT kind, category FROM users WHERE {where}").fetchall()


def test_payments_and_requests_draw_people_and_invoices_draw_clients() -> None:
    for world in range(4):
        for tool in ("send_payment", "request_money"):
            rows = _drawn(world, tool, "user_id")
            assert rows and all(kind == "person" for kind, _ in rows)
        rows = _drawn(world, "create_invoice", "customer_id")
        assert rows and all(kind == "person" or category == "Client" for kind, category in rows)
        assert any(kind == "business" for kind, _ in rows)  # the business clients are kept


def test_every_money_slot_says_dollars() -> None:
    for tool in SERVER.tools.values():
        for ask in tool.asks:
            for slot in ("amount", "target_price", "limit_price"):
                if "{" + slot + "}" in ask.text:
                    assert "${" + slot + "}" in ask.text or "{" + slot + "} dollars" in ask.text, (tool.name, ask.text)
