from __future__ import annotations

import pytest

from prove.env import Server, Session

from .toy import make_server


@pytest.fixture(scope="session")
def toy() -> Server:
    return make_server()


@pytest.fixture
def session(toy: Server) -> Session:
    with Session([toy], world=1) as s:
        yield s


def pin_of(session: Session, wallet_id: str) -> str:
    return session.call("count_wallets") and session._runtimes[0].db.execute(
        "SELECT pin FROM wallets WHERE wallet_id = ?", (wallet_id,)).fetchone()[0]
