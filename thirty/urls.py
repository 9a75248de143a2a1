from django.urls import include, path, register_converter

from games import api, chances, install, password, rules_page, views
from games.models import GameIdConverter

# A game's id is a short run of URL-safe characters; anything else is no game at all (404),
# never a lookup that the database cannot run (a NUL byte on PostgreSQL).
register_converter(GameIdConverter, "game")

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", rules_page.rules, name="rules"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("history/", views.history, name="history"),
    path("players/<path:name>/chart.svg", views.player_chart, name="player_chart"),
    path("players/<path:name>/merge", views.merge_player, name="merge_player"),
    path("players/<path:name>/", views.player, name="player"),
    path("chances/", chances.chances, name="chances"),
    path("chances/<slug:name>.svg", chances.chart, name="chance_chart"),
    path("estimate", chances.estimate, name="estimate"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("g/<game:game_id>/", views.game_page, name="game"),
    path("g/<game:game_id>/live", views.live, name="live"),
    path("g/<game:game_id>/events", views.events, name="events"),
    path("g/<game:game_id>/turn", views.turn, name="turn"),
    path("g/<game:game_id>/move", views.move, name="move"),
    path("g/<game:game_id>/seats/<int:seat>/reissue", views.reissue, name="reissue"),
    path("g/<game:game_id>/undo", views.undo, name="undo"),
    path("g/<game:game_id>/rename", views.rename, name="rename"),
    path("g/<game:game_id>/delete", views.delete, name="delete"),
    path("g/<game:game_id>/restore", views.restore, name="restore"),
    path("g/<game:game_id>/rematch", views.rematch, name="rematch"),
    path("g/<game:game_id>/host", views.claim_host, name="claim_host"),
    path("g/<game:game_id>/seat", views.claim_seat, name="claim_seat"),
    path("g/<game:game_id>/seats", views.seats_play, name="seats_play"),
    path("g/<game:game_id>/roll", views.roll, name="roll"),
    path("g/<game:game_id>/table-dice", views.table_dice, name="table_dice"),
    path("g/<game:game_id>/check", views.check_dice, name="check_dice"),
    path("g/<game:game_id>/hints", views.hints, name="hints"),
    path("g/<game:game_id>/qr.svg", views.qr_code, name="qr"),
    path("g/<game:game_id>/chart.svg", views.chart, name="chart"),
    path("g/<game:game_id>/replay", views.replay, name="replay"),
    path("g/<game:game_id>/export.json", views.export_json, name="export_json"),
    path("g/<game:game_id>/sheet.csv", views.export_csv, name="export_csv"),
    path("import", views.import_game, name="import"),
    path("unlock", password.unlock, name="unlock"),
    path("api/openapi.json", api.schema, name="api_schema"),
    path("api/games", api.create_game, name="api_games"),
    path("api/odds", api.odds, name="api_odds"),
    path("api/odds/choices", api.odds_choices, name="api_odds_choices"),
    path("api/games/<game:game_id>", api.game_detail, name="api_game"),
    path("api/games/<game:game_id>/events", views.events, name="api_events"),
    path("api/games/<game:game_id>/turns", api.add_turn, name="api_turns"),
    path("api/games/<game:game_id>/roll", api.roll, name="api_roll"),
    path("api/games/<game:game_id>/moves", api.play_card, name="api_moves"),
    path("api/games/<game:game_id>/seats/<int:seat>/claim", api.claim_seat, name="api_claim"),
    path("api/games/<game:game_id>/seats/<int:seat>/reissue", api.reissue_seat, name="api_reissue"),
    path("api/games/<game:game_id>/turns/last", api.undo_last_turn, name="api_undo"),
]

# Error pages in the reader's language (templates/400.html, 403.html and 403_csrf.html are
# drawn by Django's own views; see games/errors.py for the other two).
handler404 = "games.errors.page_not_found"
handler500 = "games.errors.server_error"
