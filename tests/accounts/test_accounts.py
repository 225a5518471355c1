"""Accounts through their routes, in a real SQLite file: what is stored (Argon2id hashes, hashed session
tokens), the cookie, the guards against other sites and other accounts, the name rules, deletion, and a
clear answer to any bad input."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from argon2.exceptions import VerifyMismatchError
from starlette.testclient import TestClient

from harness.accounts import PASSWORD, Browser, account_client, app_state
from ratscrew import database
from ratscrew.accounts import AccountStore
from ratscrew.accounts.names import check_name
from ratscrew.accounts.passwords import NOBODY
from ratscrew.accounts.store import SESSION_S, NameTaken
from ratscrew.web.session import COOKIE


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with account_client(tmp_path) as made:
        yield made


def rows(data: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    db = sqlite3.connect(data / database.FILE_NAME)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def test_the_file_keeps_an_argon2id_hash_and_a_hashed_token_never_the_password_or_the_cookie(
    client: TestClient, tmp_path: Path
) -> None:
    ann = Browser(client)
    assert ann.sign_up("Ann_1").status_code == 200
    ((stored,),) = rows(tmp_path, "SELECT password FROM accounts WHERE name = 'Ann_1'")
    assert isinstance(stored, str) and stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), stored
    assert PASSWORD not in stored
    assert PasswordHasher().verify(stored, PASSWORD)
    with pytest.raises(VerifyMismatchError):
        PasswordHasher().verify(stored, "another one")
    ((kept,),) = rows(tmp_path, "SELECT token_hash FROM sessions")
    assert ann.cookie is not None and kept == hashlib.sha256(ann.cookie.encode()).hexdigest()
    file = (tmp_path / database.FILE_NAME).read_bytes()
    assert PASSWORD.encode() not in file and ann.cookie.encode() not in file


def test_an_unknown_name_costs_one_argon2_check_like_a_known_one_and_gets_the_same_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not PasswordHasher().check_needs_rehash(NOBODY)  # the dummy hash costs what today's do
    Browser(client).sign_up("Ann_1")
    checks: list[str] = []
    real = PasswordHasher.verify

    def counted(self: PasswordHasher, stored: str, password: str) -> bool:
        checks.append(stored)
        return real(self, stored, password)

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    answers = []
    for name in ("Ann_1", "Nobody_9"):
        response = Browser(client).sign_in(name, "wrong password")
        answers.append((response.status_code, response.json()))
    assert (
        answers[0]
        == answers[1]
        == (
            403,
            {"error": "wrong name or password", "code": "wrong_sign_in", "field": "password"},
        )
    )
    assert len(checks) == 2 and checks[1] == NOBODY and checks[0].startswith("$argon2id$")


def cookie_flags(response: object) -> dict[str, str]:
    header = response.headers["set-cookie"]  # type: ignore[attr-defined]
    name_value, *attributes = [part.strip() for part in header.split(";")]
    assert name_value.startswith(f"{COOKIE}=")
    return {k.lower(): v for k, _, v in (a.partition("=") for a in attributes)}


def test_the_session_cookie_is_httponly_and_lax_and_not_secure_over_plain_http(client: TestClient) -> None:
    flags = cookie_flags(Browser(client).sign_up("Ann_1"))
    assert flags["samesite"].lower() == "lax" and "httponly" in flags and flags["path"] == "/"
    assert int(flags["max-age"]) == SESSION_S
    assert "secure" not in flags


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    with account_client(tmp_path) as secure:
        secure.base_url = secure.base_url.copy_with(scheme="https")
        flags = cookie_flags(Browser(secure).sign_up("Ann_1"))
    assert "secure" in flags and "httponly" in flags and flags["samesite"].lower() == "lax"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain: same site, another origin
    ],
)
def test_a_cross_site_post_is_refused_before_anything_is_done(
    client: TestClient, tmp_path: Path, headers: dict[str, str]
) -> None:
    ann = Browser(client)
    ann.sign_up("Ann_1")
    # Signing in or up from another site's page (a login CSRF) is refused, and no cookie is given.
    stranger = Browser(client)
    refused = stranger.post("/api/account/sign-up", {"name": "Bob_1", "password": PASSWORD}, headers=headers)
    assert refused.status_code == 403 and refused.json()["code"] == "cross_site"
    assert COOKIE not in refused.cookies and not rows(tmp_path, "SELECT 1 FROM accounts WHERE name = 'Bob_1'")
    refused = stranger.post("/api/account/sign-in", {"name": "Ann_1", "password": PASSWORD}, headers=headers)
    assert refused.status_code == 403 and COOKIE not in refused.cookies
    # With the player's cookie and even the right token, another site's page can change nothing.
    for path, body in [
        ("/api/account/password", {"current": PASSWORD, "password": "stolen password"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/sign-out", {}),
    ]:
        response = ann.post(path, body, headers=headers)
        assert response.status_code == 403 and response.json()["code"] == "cross_site", path
    assert ann.state()["account"] == {"name": "Ann_1"}
    assert Browser(client).sign_in("Ann_1").status_code == 200  # the password is still the same


def test_the_site_s_own_pages_and_its_other_origins_may_post(tmp_path: Path) -> None:
    with account_client(tmp_path) as client:
        assert (
            Browser(client)
            .post(
                "/api/account/sign-up",
                {"name": "Ann_1", "password": PASSWORD},
                headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
            )
            .status_code
            == 200
        )
        app_state(client).origins = ("https://ers.example",)
        assert (
            Browser(client)
            .post(
                "/api/account/sign-in",
                {"name": "Ann_1", "password": PASSWORD},
                headers={"Origin": "https://ers.example"},
            )
            .status_code
            == 200
        )


def test_one_account_cannot_act_for_another(client: TestClient, tmp_path: Path) -> None:
    ann, bob = Browser(client), Browser(client)
    ann.sign_up("Ann_1")
    bob.sign_up("Bob_1")
    changes = [
        ("/api/account/password", {"current": PASSWORD, "password": "taken over"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/sign-out", {}),
    ]
    # Bob's cookie with Ann's token, and each cookie without its token: refused, nothing changes.
    mixed = Browser(client, cookie=bob.cookie, csrf=ann.csrf)
    for path, body in changes:
        for who, token in ((mixed, True), (ann, False), (bob, False)):
            response = who.post(path, body, token=token)
            assert response.status_code == 403 and response.json()["code"] == "csrf", (path, response.json())
    # Without a session, there is nobody to act for.
    nobody = Browser(client, csrf=ann.csrf)
    for path, body in changes[:2]:
        response = nobody.post(path, body)
        assert response.status_code == 403 and response.json()["code"] == "signed_out"
    assert ann.state()["account"] == {"name": "Ann_1"} and bob.state()["account"] == {"name": "Bob_1"}
    assert len(rows(tmp_path, "SELECT 1 FROM accounts")) == 2 and len(rows(tmp_path, "SELECT 1 FROM sessions")) == 2
    for name in ("Ann_1", "Bob_1"):
        assert Browser(client).sign_in(name).status_code == 200


def test_sign_out_ends_the_session_on_the_server_and_a_kept_cookie_signs_nobody_in(client: TestClient) -> None:
    ann = Browser(client)
    ann.sign_up("Ann_1")
    kept = Browser(client, cookie=ann.cookie, csrf=ann.csrf)
    assert ann.post("/api/account/sign-out", {}).json() == {"account": None, "csrf": None}
    assert kept.state() == {"account": None, "csrf": None}
    assert kept.post("/api/account/delete", {"password": PASSWORD}).json()["code"] == "signed_out"


def test_a_new_password_ends_every_other_session_and_the_old_one_no_longer_signs_in(client: TestClient) -> None:
    phone, laptop = Browser(client), Browser(client)
    phone.sign_up("Ann_1")
    laptop.sign_in("Ann_1")
    wrong = phone.post("/api/account/password", {"current": "not the one", "password": "a new password"})
    assert wrong.status_code == 403 and wrong.json() == {
        "error": "wrong password",
        "code": "wrong_password",
        "field": "current",
    }
    changed = phone.post("/api/account/password", {"current": PASSWORD, "password": "a new password"})
    assert changed.status_code == 200 and changed.json()["account"] == {"name": "Ann_1"}
    assert phone.state()["account"] == {"name": "Ann_1"}
    assert laptop.state()["account"] is None
    assert Browser(client).sign_in("Ann_1").status_code == 403
    assert Browser(client).sign_in("ann_1", "a new password").status_code == 200


def test_deleting_an_account_removes_every_row_of_it_and_only_its_own(client: TestClient, tmp_path: Path) -> None:
    ann, other_ann_browser, bob = Browser(client), Browser(client), Browser(client)
    ann.sign_up("Ann_1")
    other_ann_browser.sign_in("Ann_1")
    bob.sign_up("Bob_1")
    ((ann_id,),) = rows(tmp_path, "SELECT id FROM accounts WHERE name = 'Ann_1'")
    wrong = ann.post("/api/account/delete", {"password": "not the one"})
    assert wrong.status_code == 403 and wrong.json()["field"] == "password"
    assert rows(tmp_path, "SELECT 1 FROM accounts WHERE id = ?", ann_id)
    deleted = ann.post("/api/account/delete", {"password": PASSWORD})
    assert deleted.status_code == 200 and deleted.json() == {"account": None, "csrf": None}
    assert not rows(tmp_path, "SELECT 1 FROM accounts WHERE id = ?", ann_id)
    for table in database.ACCOUNT_TABLES:
        assert not rows(tmp_path, f"SELECT 1 FROM {table} WHERE account_id = ?", ann_id), table
    assert other_ann_browser.state()["account"] is None
    assert bob.state()["account"] == {"name": "Bob_1"}
    assert Browser(client).sign_in("Ann_1").status_code == 403
    assert Browser(client).sign_up("ann_1").status_code == 200  # the name is free again, under a new id
    ((new_id,),) = rows(tmp_path, "SELECT id FROM accounts WHERE name = 'ann_1'")
    assert new_id != ann_id


def test_every_table_that_keeps_an_account_s_rows_is_one_deletion_clears(tmp_path: Path) -> None:
    database.prepare(tmp_path / "f.sqlite3")
    db = sqlite3.connect(tmp_path / "f.sqlite3")
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    keeping = {t for t in tables if "account_id" in {c[1] for c in db.execute(f"PRAGMA table_info({t})")}}
    db.close()
    assert keeping == set(database.ACCOUNT_TABLES)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "name_length"),
        ("a" * 21, "name_length"),
        ("", "name_missing"),
        (None, "name_missing"),
        (42, "name_missing"),
        ("Zoé", "name_chars"),
        ("ann smith", "name_chars"),
        ("ann@home", "name_chars"),
        ("аnn", "name_chars"),  # a Cyrillic а
        ("Medium", "name_computer"),
        ("hard_2", "name_computer"),
        ("Computer3", "name_computer"),
        ("ordinateur-1", "name_computer"),
        ("Schwer", "name_computer"),
        ("risk-faces", "name_computer"),
        ("risk_4", "name_computer"),
        ("Perfect", "name_computer"),
    ],
)
def test_a_name_outside_the_rules_is_refused_beside_the_name_field(client: TestClient, name: object, code: str) -> None:
    response = Browser(client).post("/api/account/sign-up", {"name": name, "password": PASSWORD})
    assert response.status_code == 400
    doc = response.json()
    assert doc["field"] == "name" and doc["code"] == code and doc["error"]


@pytest.mark.parametrize("name", ["ann", "A.B", "x_y-z", "Hardy", "Ann2024", "a" * 20, "computers", "Z.9"])
def test_names_inside_the_rules_are_taken_as_typed(client: TestClient, name: str) -> None:
    check_name(name)
    response = Browser(client).sign_up(name)
    assert response.status_code == 200 and response.json()["account"] == {"name": name}


def test_a_name_is_one_account_whatever_its_case(client: TestClient) -> None:
    assert Browser(client).sign_up("Ann.Lee").status_code == 200
    for other in ("ann.lee", "ANN.LEE", "aNn.LeE"):
        taken = Browser(client).sign_up(other, "another password")
        assert taken.status_code == 400 and taken.json()["code"] == "name_taken" and taken.json()["field"] == "name"
    signed = Browser(client).sign_in("ANN.lee")
    assert signed.json()["account"] == {"name": "Ann.Lee"}  # shown as it was chosen


def test_two_sign_ups_for_one_name_at_once_make_one_account(tmp_path: Path) -> None:
    store = AccountStore(tmp_path / database.FILE_NAME)
    store.create("Ann_1", NOBODY)
    with pytest.raises(NameTaken):
        store.create("ANN_1", NOBODY)  # the file's own UNIQUE rule, past the routes' look-up


BAD_BODIES: list[tuple[str, bytes, str]] = [
    ("not json", b"{name", "application/json"),
    ("a list", b"[1, 2]", "application/json"),
    ("text/plain", b'{"name": "Ann_1"}', "text/plain"),
    ("a number for a field", b'{"name": 7, "password": 8, "current": 9}', "application/json"),
    ("a number for a password", b'{"password": 8}', "application/json"),
    ("numbers for passwords", b'{"current": 9, "password": 8}', "application/json"),
    ("a list for a password", b'{"name": "Ann_1", "password": ["correct horse"]}', "application/json"),
    ("an unknown field", b'{"name": "Ann_1", "password": "correct horse", "admin": true}', "application/json"),
    ("nothing", b"", "application/json"),
    ("too long", b'{"password": "' + b"x" * 20_000 + b'"}', "application/json"),
    ("deep", b"[" * 5000 + b"]" * 5000, "application/json"),
    ("a lone surrogate", b'{"name": "Ann_1", "password": "\\ud800\\ud800\\ud800\\ud800"}', "application/json"),
    ("a huge password", b'{"name": "Ann_1", "password": "' + b"p" * 9000 + b'", "current": "x"}', "application/json"),
]
ROUTES = ["sign-up", "sign-in", "sign-out", "password", "delete"]


@pytest.mark.parametrize("route", ROUTES)
def test_bad_input_to_every_route_gets_one_clear_line(client: TestClient, route: str) -> None:
    ann = Browser(client)
    ann.sign_up("Ann_1")
    for what, body, kind in BAD_BODIES:
        client.cookies.set(COOKIE, ann.cookie or "")
        headers = {"content-type": kind, "X-CSRF-Token": ann.csrf or "", "x-test-address": "192.0.2.9"}
        response = client.post(f"/api/account/{route}", content=body, headers=headers)
        if route == "sign-out" and response.status_code == 200:  # it reads no field: any body signs out
            ann.sign_in("Ann_1")
            continue
        assert 400 <= response.status_code < 500, (route, what, response.text)
        doc = response.json()
        assert isinstance(doc["error"], str) and 0 < len(doc["error"]) < 300 and "Traceback" not in doc["error"]
    assert Browser(client).sign_in("Ann_1").status_code == 200  # and nothing was lost


@pytest.mark.parametrize("cookie", ["x" * 5000, "\u00e9t\u00e9", "", "a;b", "../../etc"])
def test_a_cookie_that_is_no_session_signs_nobody_in(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    response = client.get("/api/account", headers={"Cookie": f"{COOKIE}={cookie}".encode("latin-1")})
    assert response.status_code == 200 and response.json() == {"account": None, "csrf": None}


def test_a_session_ends_after_its_time(tmp_path: Path) -> None:
    clock = [1_000_000.0]
    store = AccountStore(tmp_path / database.FILE_NAME, now=lambda: clock[0])
    account = store.create("Ann_1", NOBODY)
    opened = store.open_session(account)
    clock[0] += SESSION_S - 1
    assert store.session(opened.token) == opened.session
    clock[0] += 1
    assert store.session(opened.token) is None
    store.open_session(account)  # opening one clears the ended ones from the file
    assert len(rows(tmp_path, "SELECT 1 FROM sessions")) == 1


OLD_SCHEMA = """
CREATE TABLE matches (id TEXT PRIMARY KEY, name TEXT NOT NULL, players TEXT NOT NULL, rules TEXT NOT NULL,
    timer_s INTEGER NOT NULL DEFAULT 0, round_started REAL, finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE rounds (match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE, number INTEGER NOT NULL,
    winner INTEGER, cards TEXT, created REAL NOT NULL, PRIMARY KEY (match_id, number));
CREATE TABLE games (id TEXT PRIMARY KEY, record TEXT NOT NULL, summary TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE rooms (code TEXT PRIMARY KEY, doc TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0, updated REAL NOT NULL);
CREATE TABLE room_actions (code TEXT NOT NULL, game_no INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (code, game_no, idx));
INSERT INTO matches (id, name, players, rules, created, updated)
    VALUES ('0123456789ab', 'Friday', '["Ann", "Bo"]', '{"preset": "standard"}', 1.0, 1.0);
INSERT INTO rounds (match_id, number, winner, created) VALUES ('0123456789ab', 1, 1, 2.0);
"""


def test_a_file_from_before_accounts_keeps_its_data_and_gains_them(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / database.FILE_NAME)
    db.executescript(OLD_SCHEMA)
    db.close()
    with account_client(tmp_path) as client:
        match = client.get("/api/matches/0123456789ab").json()
        assert match["name"] == "Friday" and match["players"] == ["Ann", "Bo"] and match["wins"] == [0, 1]
        assert Browser(client).sign_up("Ann_1").status_code == 200
    assert rows(tmp_path, "SELECT name FROM accounts") == [("Ann_1",)]
    assert rows(tmp_path, "SELECT count(*) FROM rounds") == [(1,)]
