"""The OpenAPI description of the public JSON API, served at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from games.rules import MAX_PLAYERS, MAX_TOTAL, MIN_PLAYERS, MIN_TOTAL
from games.rules.ruleset import MAX_START_POINTS, MAX_TARGET, MIN_START_POINTS, MIN_TARGET

_ERROR = {"$ref": "#/components/schemas/Error"}
_STATE = {"$ref": "#/components/schemas/GameState"}
_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "maxLength": 16},
}
_HOST_KEY = {"name": "X-Host-Key", "in": "header", "required": True, "schema": {"type": "string"}}
# A turn may come from the host, or from a player's own seat when the host allows it.
_TURN_KEYS = [
    _HOST_KEY | {"required": False},
    {"name": "X-Seat-Key", "in": "header", "required": False, "schema": {"type": "string"}},
]


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    text = {
        400: "Malformed request",
        403: "Missing or wrong host key",
        404: "Unknown game",
        409: "Finished game or stale version",
        422: "Refused by the rules",
    }
    return {str(code): _json(_ERROR, text[code]) for code in codes}


def openapi_schema() -> dict[str, Any]:
    rules_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "preset": {"enum": ["thirty", "30s"]},
            "start_points": {
                "type": "integer",
                "minimum": MIN_START_POINTS,
                "maximum": MAX_START_POINTS,
            },
            "target": {"type": "integer", "minimum": MIN_TARGET, "maximum": MAX_TARGET},
            "set_aside": {"enum": ["any", "one"]},
            "on_failure": {"enum": ["nothing", "one", "shortfall"]},
            "empty_seat": {"enum": ["carry", "lost"]},
            "hunt_dice": {"enum": ["six", "margin"]},
            "end": {"enum": ["last_standing", "first_out"]},
            "healing": {"type": "boolean"},
            "free_for_all": {"type": "boolean"},
            "weaker_attacks": {"type": "boolean"},
            "precise_elimination": {"type": "boolean"},
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Thirty",
            "version": "1",
            "description": "Score sheets for the Thirty dice games.",
        },
        "paths": {
            "/api/games": {
                "post": {
                    "summary": "Create a game",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["players"],
                                    "additionalProperties": False,
                                    "properties": {
                                        "name": {"type": "string", "maxLength": 80},
                                        "players": {
                                            "type": "array",
                                            "minItems": MIN_PLAYERS,
                                            "maxItems": MAX_PLAYERS,
                                            "items": {
                                                "type": "string",
                                                "minLength": 1,
                                                "maxLength": 40,
                                            },
                                        },
                                        "rules": rules_schema,
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "201": _json(
                            {
                                "allOf": [
                                    _STATE,
                                    {
                                        "type": "object",
                                        "properties": {"host_key": {"type": "string"}},
                                    },
                                ]
                            },
                            "The new game, with its host key (returned only here)",
                        ),
                        **_errors(400, 422),
                    },
                }
            },
            "/api/games/{game_id}": {
                "get": {
                    "summary": "The game state",
                    "description": (
                        "Answered from a copy kept per game version, so asking often is cheap;"
                        " `since` leaves out the turns a client already has."
                    ),
                    "parameters": [
                        _GAME_ID,
                        {
                            "name": "since",
                            "in": "query",
                            "required": False,
                            "description": "Only the turns numbered above this one.",
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "responses": {"200": _json(_STATE, "The game"), **_errors(400, 404)},
                }
            },
            "/api/games/{game_id}/events": {
                "get": {
                    "summary": "Follow the game without polling (server-sent events)",
                    "description": (
                        "A `text/event-stream` that stays open. The first event is the version"
                        " now, then one event follows every change. Each event is `id: N`,"
                        ' `event: version` and `data: {"version": N}`; nothing else about the'
                        " game travels on the stream, so ask `GET /api/games/{game_id}`"
                        " (with `since`) for what changed. A comment line (`: keep-alive`)"
                        " comes every 20 seconds while nothing happens. After a dropped"
                        " connection, connect again (`retry: 1000` asks for one second) and"
                        " compare the first version with the one you have."
                    ),
                    "parameters": [_GAME_ID],
                    "responses": {
                        "200": {
                            "description": "The stream of versions",
                            "content": {
                                "text/event-stream": {
                                    "schema": {"type": "string"},
                                    "example": (
                                        "retry: 1000\nid: 7\nevent: version\n"
                                        'data: {"version": 7}\n\n: keep-alive\n\n'
                                    ),
                                }
                            },
                        },
                        **_errors(404),
                    },
                }
            },
            "/api/games/{game_id}/turns": {
                "post": {
                    "summary": "Record a turn",
                    "parameters": [_GAME_ID, *_TURN_KEYS],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["total"],
                                    "additionalProperties": False,
                                    "properties": {
                                        "total": {
                                            "type": "integer",
                                            "minimum": MIN_TOTAL,
                                            "maximum": MAX_TOTAL,
                                        },
                                        "hunt": {
                                            "type": "integer",
                                            "minimum": 0,
                                            "maximum": 6,
                                            "nullable": True,
                                        },
                                        "target": {
                                            "type": "integer",
                                            "minimum": 1,
                                            "nullable": True,
                                        },
                                        "heal": {"type": "boolean"},
                                        "version": {"type": "integer"},
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "201": _json(_STATE, "The new state"),
                        **_errors(400, 403, 404, 409, 422),
                    },
                }
            },
            "/api/games/{game_id}/turns/last": {
                "delete": {
                    "summary": "Undo the last turn",
                    "parameters": [
                        _GAME_ID,
                        _HOST_KEY,
                        {
                            "name": "version",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer"},
                        },
                    ],
                    "responses": {
                        "200": _json(_STATE, "The state after the undo"),
                        **_errors(400, 403, 404, 409, 422),
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string"}},
                },
                "GameState": {
                    "type": "object",
                    "required": [
                        "id",
                        "name",
                        "rules",
                        "seats",
                        "turns",
                        "next_roller",
                        "winners",
                        "finished",
                        "version",
                    ],
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "rules": rules_schema,
                        "seats": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["seat", "name", "points", "out"],
                                "properties": {
                                    "seat": {"type": "integer"},
                                    "name": {"type": "string"},
                                    "points": {"type": "integer"},
                                    "out": {"type": "boolean"},
                                },
                            },
                        },
                        "turns": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["number", "roller", "total", "hunt", "cells"],
                                "properties": {
                                    "number": {"type": "integer"},
                                    "roller": {"type": "integer"},
                                    "total": {"type": "integer"},
                                    "hunt": {"type": "integer", "nullable": True},
                                    "target": {"type": "integer", "nullable": True},
                                    "heal": {"type": "boolean"},
                                    "effect": {
                                        "enum": ["missed", "hit", "lost", "healed", "overshot"]
                                    },
                                    "cells": {"type": "array", "items": {"type": "integer"}},
                                },
                            },
                        },
                        "next_roller": {"type": "integer", "nullable": True},
                        "winners": {"type": "array", "items": {"type": "integer"}},
                        "finished": {"type": "boolean"},
                        "version": {"type": "integer"},
                    },
                },
            }
        },
    }
