"""The trading server's candidate prices sit on the side of the market their phrasing implies."""

from __future__ import annotations

import pytest

from prove.env import Session, registry

from .helpers import fails, ok

SERVER = registry.get("trading")


def _side_share(s: Session, candidates: list[tuple], low: str) -> float:
    """The share of candidates below the quote for `low` ('buy', 'below') and above it otherwise."""
    right = 0
    for ticker, side, price in candidates:
        quote = ok(s, "get_quote", {"ticker": ticker})["price"]
        right += (price < quote) if side == low else (price > quote)
    return right / len(candidates)


@pytest.mark.parametrize("world", range(4))
def test_limit_orders_rest_and_alerts_wait_in_almost_every_case(world: int) -> None:
    s = Session("trading", world=world)
    assert _side_share(s, SERVER.tools["place_order"].values["ticker, side, limit_price"], "buy") >= 0.9
    assert _side_share(s, SERVER.tools["create_price_alert"].values["ticker, condition, target_price"],
                       "below") >= 0.9


def test_a_candidate_alert_is_set_and_a_met_one_is_refused() -> None:
    s = Session("trading", world=0)
    candidates = SERVER.tools["create_price_alert"].values["ticker, condition, target_price"]
    placed = refused = 0
    for ticker, condition, target in candidates:
        quote = ok(s, "get_quote", {"ticker": ticker})["price"]
        args = {"ticker": ticker, "condition": condition, "target_price": target}
        if (target < quote) == (condition == "below"):
            if placed < 3:
                assert ok(s, "create_price_alert", args)["status"] == "active"
                placed += 1
        elif refused < 3:
            fails(s, "create_price_alert", "condition_already_met", args)
            refused += 1
    assert placed == 3
