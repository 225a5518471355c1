"""The page's types hold what the server really sends: ``wire.d.ts`` is what ``web/typescript.py`` renders from
the server's dataclasses today, and TypeScript's own checker accepts the golden corpus and real answers of
every JSON route as the types say (an extra field, a missing one, or a value of another kind fails, naming
the place), the hand-kept types of ``types.d.ts`` included."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from harness.profiles import finish, room_game
from ratscrew.accounts import AccountStore
from ratscrew.engine.actions import Flip, Slap
from ratscrew.engine.game import Game
from ratscrew.record import Record, play_out
from ratscrew.rooms import wire
from ratscrew.rules import Rules
from ratscrew.web import typescript
from ratscrew.web.app import create_app
from ratscrew.web.store import Store

ROOT = Path(__file__).resolve().parents[2]
TYPES = ROOT / "src" / "ratscrew" / "web" / "static" / "js" / "types.js"  # types.d.ts, as the pages import it
TSC = ROOT / "node_modules" / ".bin" / "tsc"
GOLDEN = ROOT / "tests" / "golden"


def test_wire_d_ts_is_what_the_server_s_classes_render() -> None:
    written = typescript.TARGET.read_text(encoding="utf-8")
    assert written == typescript.render(), f"wire.d.ts is stale: run `{typescript.COMMAND}` and commit the file"


def typed(name: str, type_name: str, value: object) -> str:
    return f"export const {name}: {type_name} = {json.dumps(value, ensure_ascii=False, indent=1)};\n"


def check(tmp_path: Path, samples: list[tuple[str, object]]) -> str:
    """TypeScript's verdict on each sample as a value of its type (the project's strict settings); its errors."""
    names = sorted({type_name for type_name, _ in samples})
    source = [f"import type {{ {', '.join(names)} }} from {json.dumps(str(TYPES))};\n"]
    source += [typed(f"sample{i}", type_name, value) for i, (type_name, value) in enumerate(samples)]
    (tmp_path / "samples.ts").write_text("".join(source), encoding="utf-8")
    settings = (ROOT / "tsconfig.json").read_text(encoding="utf-8").splitlines()
    config = json.loads("\n".join(line for line in settings if not line.lstrip().startswith("//")))  # its comments
    config["compilerOptions"] |= {"allowJs": False, "checkJs": False}
    config.pop("include")
    config["files"] = ["samples.ts"]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run([str(TSC), "-p", str(tmp_path)], capture_output=True, text=True, timeout=300, check=False)
    return done.stdout + done.stderr


def test_the_checker_names_a_field_the_types_do_not_have(tmp_path: Path) -> None:
    # The check itself, seen failing: a misspelt field, a missing one, and a number where text belongs.
    pong: dict[str, Any] = {"type": "pong", "id": 1, "extra": True}
    seated = {"type": "seated", "seats": [0]}
    error = {"type": "error", "message": 7}
    said = check(tmp_path, [("ServerMessage", pong), ("ServerMessage", seated), ("ServerMessage", error)])
    assert "'\"extra\"' does not exist in type 'PongMessage'" in said
    assert "Property 'token' is missing" in said
    assert "Type 'number' is not assignable to type 'string'" in said


def test_the_golden_corpus_is_what_the_types_say(tmp_path: Path) -> None:
    messages = json.loads((GOLDEN / "messages.json").read_text(encoding="utf-8"))
    events = json.loads((GOLDEN / "events.json").read_text(encoding="utf-8"))
    samples: list[tuple[str, object]] = [("ServerMessage", doc) for doc in messages["server"]]
    samples += [("ClientMessage", doc) for doc in messages["page"]]
    samples += [("GameEvent", doc) for doc in events]
    assert check(tmp_path, samples) == ""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "data")) as test_client:
        yield test_client


def record_doc() -> dict[str, object]:
    """A short game with a right and a wrong slap, as a record file holds it."""
    rules = Rules.build("standard", {"end.max_cards": 80})
    game = Game.from_seed(rules, 3, 4)
    for _ in range(6):
        game.apply(Flip(game.now))
    game.apply(Slap(1, game.now, game.cards))
    game.apply(Slap(2, game.now, game.cards))
    play_out(game)
    return Record(rules, 3, seed=4, players=("Ann", "Bo", "Cy"), actions=tuple(game.actions)).to_json()


def answers(client: TestClient) -> list[tuple[str, object]]:
    """A real answer of every JSON route the pages read, with the type the page reads it as."""

    def get(path: str) -> object:
        response = client.get(path)
        assert response.status_code == 200, (path, response.text)
        return response.json()

    def post(path: str, body: object, status: int = 200) -> Any:
        response = client.post(path, json=body)
        assert response.status_code == status, (path, response.text)
        return response.json()

    said: list[tuple[str, object]] = [("Meta", get("/api/meta")), ("Meta", get("/api/meta?lang=de"))]
    said.append(("RulesSummary", post("/api/rules/summary", {"rules": {"preset": "bicycle"}, "players": 3})))
    for preset in ("standard", "slapjack"):
        said.append(("LearnDoc", get(f"/api/learn?preset={preset}&lang=fr")))
    said += [("DrillQuestion", get(f"/api/drills/{kind}?seed=3")) for kind in ("debt", "slap")]
    said.append(("StreamDrill", get("/api/drills/stream?seed=3")))
    said.append(("RefereeAnswer", get("/api/check?cards=9S%207H%209D")))
    game = post("/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}]})
    said.append(("CreatedGame", game))
    room = post("/api/rooms", {"public": True, "seats": 3, "name": "Bo"})
    said += [("CreatedRoom", room), ("RoomList", get("/api/rooms")), ("RoomInfo", get(f"/api/rooms/{room['code']}"))]
    record = record_doc()
    said.append(("ReplayPage", post("/api/replay?start=0&count=40", record)))
    over = next(doc for doc in json.loads((GOLDEN / "messages.json").read_text())["server"] if doc["type"] == "over")
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    store.save_game("GOLD23", Record.from_json(record), wire.GameSummary.from_json(over["summary"]))
    said.append(("HistoryAnswer", get("/api/history?ids=GOLD23,NOPE23")))
    match = post("/api/matches", {"players": ["Ann", "Bo"], "timer_s": 60}, 201)
    said.append(("CreatedMatch", match))
    keys = {"X-Match-Keys": match["key"]}
    assert client.post(f"/api/matches/{match['id']}/rounds", json={"cards": [30, 22]}, headers=keys).status_code == 200
    said += [("ScoreMatch", get(f"/api/matches/{match['id']}")), ("MatchPage", get("/api/matches"))]
    duel = {"size": "2", "rated": False, "preset": "standard"}
    waiting = post("/api/playnow/join", {**duel, "name": "Cy"})
    said += [("PlayNowAnswer", waiting), ("PlayNowAnswer", post("/api/playnow/join", duel))]
    said.append(("PlayNowAnswer", post("/api/playnow/where", {"token": waiting["token"]})))  # placed, with its ticket
    said.append(("AccountAnswer", get("/api/account")))
    accounts: AccountStore = client.app.state.accounts  # type: ignore[attr-defined]
    said.append(("AccountAnswer", post("/api/account/sign-up", {"name": "Ann_7", "password": "eight chars"})))
    said.append(("AccountAnswer", post("/api/account/sign-up", {"name": "Bo_7", "password": "eight chars"})))
    seats = [found[0].id for found in map(accounts.find, ("Ann_7", "Bo_7")) if found is not None]
    played = room_game(Rules.build("standard"), ["medium", "hard"], 3, code="TYPES1")
    finish(store.path, played, seats, rated=True)
    said.append(("PlayerAnswer", get("/api/players/Ann_7")))
    said += [("LeaderboardAnswer", get(f"/api/leaderboard?size={size}")) for size in ("2", "3%2B")]
    return said


def test_every_answer_the_pages_read_is_what_the_types_say(tmp_path: Path, client: TestClient) -> None:
    samples = answers(client)
    assert check(tmp_path, samples) == ""
