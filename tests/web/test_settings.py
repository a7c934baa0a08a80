"""The web table's settings: off unless WEB_PORT is set, a local address by default, and a base
URL that posts can link to or a clear refusal."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def test_the_web_table_is_off_by_default_and_local_when_on(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WEB_PORT", "WEB_HOST", "WEB_BASE_URL", "WEB_SECRET", "WEB_LINK_DAYS"):
        monkeypatch.delenv(name, raising=False)
    off = Settings(_env_file=None)
    assert off.web_port is None and off.web_host == "127.0.0.1" and off.web_base_url is None
    monkeypatch.setenv("WEB_PORT", "")
    monkeypatch.setenv("WEB_SECRET", " ")
    assert Settings(_env_file=None).web_port is None and Settings(_env_file=None).web_secret is None
    monkeypatch.setenv("WEB_PORT", "8080")
    monkeypatch.setenv("WEB_BASE_URL", "https://table.example.org/warhost")
    on = Settings(_env_file=None)
    assert on.web_port == 8080 and on.web_base_url == "https://table.example.org/warhost"


@pytest.mark.parametrize("url", ["table.example.org", "ftp://table.example.org", "https://has space.org"])
def test_a_base_url_posts_cannot_link_to_is_refused(url: str) -> None:
    with pytest.raises(ValidationError, match="web_base_url"):
        Settings(_env_file=None, web_base_url=url)
