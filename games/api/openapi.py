"""The OpenAPI document of the public JSON API, served at /api/openapi.json.

Every schema in it is generated from the models the views validate requests with (those every
kind shares in `games/api/models.py`, each kind's in its own package); this module only adds the
table of paths and operations, with each kind's own operations (`Kind.api_operations`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from games.api import models as m
from games.kinds import KINDS, UNDO
from games.models import GameIdConverter

REF = "#/components/schemas/{model}"

STATUS_TEXT = {
    400: "Malformed request: not JSON, a wrong type, a missing or unknown field",
    401: "This instance's password is needed (Authorization: Bearer)",
    403: "Missing or wrong key, or not this seat's turn",
    404: "No such game, or nothing of the kind in this game",
    409: "A finished game, a stale version, or a card that cannot be taken back",
    413: "Request body too large",
    415: "Body not sent as application/json",
    422: "Refused by the rules",
    429: "Too many wrong keys or passwords from this address: wait and try again",
}


@dataclass(frozen=True)
class Param:
    name: str
    where: Literal["path", "query", "header"]
    schema: dict[str, Any]
    required: bool = False
    description: str = ""


GAME_ID = Param(
    "game_id", "path", {"type": "string", "pattern": f"^{GameIdConverter.regex}$"}, required=True
)
SEAT = Param("seat", "path", {"type": "integer"}, required=True, description="From 1")
HOST_KEY = Param("X-Host-Key", "header", {"type": "string"}, description="The host's key")
SEAT_KEY = Param("X-Seat-Key", "header", {"type": "string"}, description="A seat's own key")
VERSION = Param("version", "query", {"type": "integer"}, description="The version last seen")
SINCE = Param(
    "since",
    "query",
    {"type": "integer", "minimum": 0},
    description="A dice game: only the turns numbered above this one",
)


@dataclass(frozen=True)
class Operation:
    method: Literal["get", "post", "delete"]
    path: str
    summary: str
    answer: tuple[int, type[BaseModel] | tuple[type[BaseModel], ...]]
    refusals: tuple[int, ...]
    params: tuple[Param, ...] = ()
    body: type[BaseModel] | tuple[type[BaseModel], ...] | None = None


def operations() -> tuple[Operation, ...]:
    """Every operation: those every kind shares, each answering with every kind's models (and
    taking every kind's moves on `/moves`), then each kind's own (`Kind.api_operations`)."""
    kinds = list(KINDS.values())
    states = tuple(kind.state_model for kind in kinds)
    undoing = tuple(kind.state_model for kind in kinds if UNDO not in kind.refuses)
    shared = (
        Operation(
            "post",
            "/api/games",
            "Create a game; the answer has the host key and the seat keys",
            (201, tuple(kind.new_state_model for kind in kinds)),
            (400, 401, 413, 415, 422, 429),
            body=m.new_game_model(),
        ),
        Operation(
            "get",
            "/api/games/{game_id}",
            "The game state (a card game's own hand with that seat's key); answered from a copy"
            " kept per version, so asking often is cheap",
            (200, states),
            (400, 403, 404, 429),
            (GAME_ID, SEAT_KEY, SINCE),
        ),
        Operation(
            "delete",
            "/api/games/{game_id}/turns/last",
            "Undo the last dice turn",
            (200, undoing),
            (400, 403, 404, 409, 422, 429),
            (GAME_ID, HOST_KEY, VERSION),
        ),
        Operation(
            "post",
            "/api/games/{game_id}/moves",
            "A move of any kind: a card from the seat's own hand (the seat's key); in a dice game"
            " a typed-in turn (with its total) or a step of a turn the app rolls, as /turns and"
            " /roll take them (the host's key, or the roller's own seat key)",
            (201, states),
            (400, 403, 404, 409, 413, 415, 422, 429),
            (GAME_ID, HOST_KEY, SEAT_KEY),
            tuple(model for kind in kinds for model in kind.move_models),
        ),
        Operation(
            "post",
            "/api/games/{game_id}/seats/{seat}/claim",
            "Claim a card game's seat: the key given becomes a fresh one",
            (200, m.SeatKey),
            (403, 404, 429),
            (GAME_ID, SEAT, SEAT_KEY),
        ),
        Operation(
            "post",
            "/api/games/{game_id}/seats/{seat}/reissue",
            "The host gives a card game's seat a new claimable key",
            (200, m.SeatKey),
            (403, 404, 429),
            (GAME_ID, SEAT, HOST_KEY),
        ),
    )
    return shared + tuple(operation for kind in kinds for operation in kind.api_operations)


def _bodies(operation: Operation) -> list[type[BaseModel]]:
    body = operation.body
    return [] if body is None else list(body) if isinstance(body, tuple) else [body]


def _answers(operation: Operation) -> list[type[BaseModel]]:
    models = operation.answer[1]
    return list(models) if isinstance(models, tuple) else [models]


def _components() -> tuple[dict[Any, Any], dict[str, Any]]:
    return _components_of(tuple(KINDS))


@cache
def _components_of(kinds: tuple[str, ...]) -> tuple[dict[Any, Any], dict[str, Any]]:
    wanted: dict[tuple[type[BaseModel], JsonSchemaMode], None] = {(m.Error, "serialization"): None}
    for operation in operations():
        for body in _bodies(operation):
            wanted[body, "validation"] = None
        for model in _answers(operation):
            wanted[model, "serialization"] = None
    refs, schemas = models_json_schema(list(wanted), ref_template=REF)
    return refs, schemas.get("$defs", {})


def _content(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _operation(operation: Operation, refs: dict[Any, Any]) -> dict[str, Any]:
    answers = [refs[model, "serialization"] for model in _answers(operation)]
    status, _ = operation.answer
    error = refs[m.Error, "serialization"]
    spec: dict[str, Any] = {
        "summary": operation.summary,
        "operationId": f"{operation.method}_{operation.path}",
        "responses": {
            str(status): _content(answers[0] if len(answers) == 1 else {"anyOf": answers}, "OK")
        }
        | {str(code): _content(error, STATUS_TEXT[code]) for code in operation.refusals},
    }
    if operation.params:
        spec["parameters"] = [
            {"name": p.name, "in": p.where, "required": p.required, "schema": p.schema}
            | ({"description": p.description} if p.description else {})
            for p in operation.params
        ]
    if bodies := [refs[body, "validation"] for body in _bodies(operation)]:
        schema = bodies[0] if len(bodies) == 1 else {"anyOf": bodies}
        spec["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": schema}},
        }
    return spec


# A stream, not JSON: it is described here by hand, and left out of the fuzzing.
EVENTS: dict[str, Any] = {
    "summary": "Follow the game without polling (server-sent events)",
    "description": (
        "A `text/event-stream` that stays open. The first event is the version now, then one"
        ' event follows every change: `id: N`, `event: version` and `data: {"version": N}`,'
        " with a comment line as a heartbeat every 20 seconds. Nothing else about the game"
        " travels on the stream: ask `GET /api/games/{game_id}` for what changed. A client that"
        " reconnects with `Last-Event-ID` gets the version now at once."
    ),
    "operationId": "get_/api/games/{game_id}/events",
    "parameters": [
        {"name": "game_id", "in": "path", "required": True, "schema": GAME_ID.schema},
    ],
    "responses": {
        "200": {
            "description": "The stream of versions",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        "404": {"description": STATUS_TEXT[404]},
    },
}


def openapi_schema() -> dict[str, Any]:
    """The document, made once for the kinds the app has (a test may give it others)."""
    return _schema_of(tuple(KINDS))


@cache
def _schema_of(kinds: tuple[str, ...]) -> dict[str, Any]:
    refs, schemas = _components()
    paths: dict[str, dict[str, Any]] = {}
    for operation in operations():
        paths.setdefault(operation.path, {})[operation.method] = _operation(operation, refs)
    paths["/api/games/{game_id}/events"] = {"get": EVENTS}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Thirty",
            "version": "1",
            "description": "Live score sheets for the Thirty dice games, and the card game.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
