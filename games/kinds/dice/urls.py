"""The dice games' own addresses (`Kind.urlpatterns`): the Chances page and the estimate, the
pad's and the tray's addresses from before every kind posted its moves to one view, undo, the
odds switch, the table's dice and their check page, and in the API `/turns`, `/roll` and the
odds."""

from django.urls import path

from games.kinds.dice import api, chances, pages

urlpatterns = [
    path("chances/", chances.chances, name="chances"),
    path("chances/<slug:name>.svg", chances.chart, name="chance_chart"),
    path("estimate", chances.estimate, name="estimate"),
    path("g/<game:game_id>/turn", pages.turn, name="turn"),
    path("g/<game:game_id>/undo", pages.undo, name="undo"),
    path("g/<game:game_id>/roll", pages.roll, name="roll"),
    path("g/<game:game_id>/table-dice", pages.table_dice, name="table_dice"),
    path("g/<game:game_id>/check", pages.check_dice, name="check_dice"),
    path("g/<game:game_id>/hints", pages.hints, name="hints"),
    path("players/<path:name>/coaching.svg", pages.coaching_chart, name="coaching_chart"),
    path("players/<path:name>/coaching", pages.coaching, name="coaching"),
    path("api/odds", api.odds, name="api_odds"),
    path("api/odds/choices", api.odds_choices, name="api_odds_choices"),
    path("api/games/<game:game_id>/turns", api.add_turn, name="api_turns"),
    path("api/games/<game:game_id>/roll", api.roll, name="api_roll"),
]
