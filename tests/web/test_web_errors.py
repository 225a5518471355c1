"""The error tree as the web layer and the command line answer it: one status and one exit code per branch,
one readable line per refusal, and the request-reading refusals every JSON endpoint shares."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

with warnings.catch_warnings():  # Starlette warns, once, that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ratscrew import errors
from ratscrew.cli.app import exit_code
from ratscrew.i18n import LANGUAGES, catalog
from ratscrew.web.app import create_app
from ratscrew.web.errors import status_for

# Every branch of the tree with the status and exit code docs/errors.md promises for it.
EXPECTED: dict[type[errors.RatscrewError], tuple[int, int]] = {
    errors.RatscrewError: (400, 2),
    errors.MalformedInput: (400, 2),
    errors.NotationError: (400, 2),
    errors.RulesError: (400, 2),
    errors.RecordError: (400, 2),
    errors.BadRequest: (400, 2),
    errors.BadMessage: (400, 2),
    errors.IllegalAction: (400, 2),
    errors.NotFound: (404, 2),
    errors.Conflict: (409, 3),
    errors.Forbidden: (403, 3),
    errors.TooMany: (429, 3),
    errors.Unavailable: (503, 3),
}

HUGE = "9" * 5000


def _tree(root: type[errors.RatscrewError]) -> Iterator[type[errors.RatscrewError]]:
    yield root
    for child in root.__subclasses__():
        if child.__module__ == errors.__name__:
            yield from _tree(child)


def test_every_class_of_the_tree_is_mapped() -> None:
    """A new error class must be added here (and to docs/errors.md) before the suite passes."""
    assert set(_tree(errors.RatscrewError)) == set(EXPECTED)
    for kind, (status, code) in EXPECTED.items():
        assert (status_for(kind("x")), exit_code(kind("x"))) == (status, code), kind.__name__


async def _raise(request: Request) -> Response:
    kind = next(k for k in EXPECTED if k.__name__ == request.path_params["name"])
    raise kind(f"a {kind.__name__} happened: expected nothing of the kind")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path, [Route("/test/raise/{name:str}", _raise)])
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize("kind", list(EXPECTED), ids=lambda k: k.__name__)
def test_each_branch_is_answered_with_its_status_and_its_own_message(
    client: TestClient, kind: type[errors.RatscrewError]
) -> None:
    response = client.get(f"/test/raise/{kind.__name__}")
    assert response.status_code == EXPECTED[kind][0]
    assert response.json() == {"error": f"a {kind.__name__} happened: expected nothing of the kind"}


def test_a_bug_is_a_json_500_without_a_traceback(tmp_path: Path) -> None:
    async def broken(request: Request) -> Response:
        raise KeyError("secret internals")

    with TestClient(create_app(tmp_path, [Route("/test/broken", broken)]), raise_server_exceptions=False) as client:
        response = client.get("/test/broken")
    assert response.status_code == 500
    assert response.json() == {"error": "internal error; nothing was changed"}


def test_starlettes_own_refusals_are_json_too(client: TestClient) -> None:
    response = client.options("/api/check")
    assert response.status_code == 405
    assert response.json() == {"error": "OPTIONS is not allowed here"}
    assert "GET" in response.headers["allow"]
    missing = client.get("/static/js/nothing.js")
    assert missing.status_code == 404 and missing.json() == {"error": "Not Found"}


def test_unknown_addresses_and_languages_are_404(client: TestClient) -> None:
    assert client.get("/api/nothing-here").status_code == 404
    assert "no such address" in client.get("/api/nothing-here").json()["error"]
    response = client.get("/api/i18n/xx")
    assert response.status_code == 404
    assert "unknown language 'xx'" in response.json()["error"]
    part = client.get("/api/i18n/fr/nothing")
    assert part.status_code == 404 and "unknown part 'nothing' of the catalog" in part.json()["error"]


def test_a_page_gets_its_catalog_in_parts_that_make_the_whole_without_the_terminals_words(client: TestClient) -> None:
    for lang in LANGUAGES:
        main, learn = client.get(f"/api/i18n/{lang}").json(), client.get(f"/api/i18n/{lang}/learn").json()
        assert learn and not set(main) & set(learn)
        whole = catalog(lang)
        assert {**main, **learn} == {key: text for key, text in whole.items() if not key.startswith("tui.")}
        assert any(key.startswith("tui.") for key in whole)


@pytest.mark.parametrize("path", ["/api/meta", "/api/learn", "/api/drills/slap?seed=1"])
def test_an_unknown_language_falls_back_to_the_browsers(client: TestClient, path: str) -> None:
    sep = "&" if "?" in path else "?"
    for asked, header, expected in (("xx", "de-CH,de;q=0.9", "de"), ("es", "", "en"), ("fr", "de", "fr")):
        response = client.get(f"{path}{sep}lang={asked}", headers={"Accept-Language": header})
        assert response.status_code == 200, response.text
        assert response.json()["lang"] == expected, (path, asked, header)


# ---------------------------------------------------------------------------------------- request bodies


def _post(client: TestClient, path: str, raw: bytes, content_type: str | None = "application/json") -> Any:
    headers = {"content-type": content_type} if content_type else {}
    return client.post(path, content=raw, headers=headers)


@pytest.mark.parametrize("path", ["/api/check", "/api/matches", "/api/games"])
def test_a_number_of_more_than_4300_digits_is_a_clear_400(client: TestClient, path: str) -> None:
    response = _post(client, path, b'{"cards": ' + HUGE.encode() + b', "players": ' + HUGE.encode() + b"}")
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert "more than 4300 digits" in message
    assert "int_max_str_digits" not in message and "Exceeds the limit" not in message


@pytest.mark.parametrize(
    "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
@pytest.mark.parametrize("path", ["/api/check", "/api/matches", "/api/games"])
def test_bodies_that_are_not_declared_json_are_refused(client: TestClient, path: str, content_type: str | None) -> None:
    body = {"cards": ["9", "9"], "players": ["Ann", "Bob"], "seats": [{"kind": "human"}, {"kind": "bot"}]}
    response = _post(client, path, json.dumps(body).encode(), content_type)
    assert response.status_code == 400, response.text
    assert "Content-Type: application/json" in response.json()["error"]
    assert client.get("/api/matches").json()["matches"] == []


def test_json_with_a_charset_is_json(client: TestClient) -> None:
    response = _post(client, "/api/check", b'{"cards": ["9", "9"]}', "application/json; charset=utf-8")
    assert response.status_code == 200, response.text
    assert response.json()["slappable"] is True


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("cards=", "no cards given"),
        ("cards=" + "9 " * 300, "too many cards"),
        ("cards=9 Z", "Z"),
        ("cards=9 9&preset=nope", "unknown preset"),
    ],
)
def test_the_referee_refuses_bad_piles_with_one_line(client: TestClient, query: str, words: str) -> None:
    response = client.get(f"/api/check?{query}")
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert words.lower() in message.lower()
    assert "\n" not in message


def test_every_refusal_has_its_log_line_at_info(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """docs/hosting.md: ``--log-level info`` adds a line for every refused input (an operator found none for
    429, 404 or 400 answers: only sockets had theirs)."""
    with caplog.at_level(logging.INFO, logger="ratscrew.web.errors"):
        client.get("/test/raise/TooMany")
        client.options("/api/check")
        client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    lines = [record.getMessage() for record in caplog.records if record.name == "ratscrew.web.errors"]
    assert any(
        line.startswith("refused GET /test/raise/TooMany from testclient (429): a TooMany happened") for line in lines
    ), lines
    assert any(line.startswith("refused OPTIONS /api/check from testclient (405)") for line in lines), lines
    assert any(line.startswith("refused POST /api/rooms from testclient (400)") for line in lines), lines
