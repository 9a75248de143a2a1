from django.urls import include, path, register_converter
from django.views.generic import TemplateView

from games import install, password, rules_page
from games.api import views as api
from games.kinds import KINDS
from games.models import GameIdConverter
from games.web import game, home, results, seats, transfer

# A game's id is a short run of URL-safe characters; anything else is no game at all (404),
# never a lookup that the database cannot run (a NUL byte on PostgreSQL).
register_converter(GameIdConverter, "game")

urlpatterns = [
    # First, because Django tries the patterns in order: every phone that follows a game
    # asks this every second.
    path("g/<game:game_id>/live", game.live, name="live"),
    path("", home.home, name="home"),
    path("rules/", rules_page.rules, name="rules"),
    path("join", seats.join, name="join"),
    path("https/", TemplateView.as_view(template_name="https.html"), name="https_help"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("history/", home.history, name="history"),
    path("players/<path:name>/chart.svg", results.player_chart, name="player_chart"),
    path("players/<path:name>/merge", results.merge_player, name="merge_player"),
    path("players/<path:name>/", results.player, name="player"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("g/<game:game_id>/", game.game_page, name="game"),
    path("g/<game:game_id>/table", game.table_screen, name="table_screen"),
    path("g/<game:game_id>/present", game.seats_present, name="present"),
    path("g/<game:game_id>/events", game.events, name="events"),
    path("g/<game:game_id>/move", game.move, name="move"),
    path("g/<game:game_id>/seats/<int:seat>/reissue", seats.reissue, name="reissue"),
    path("g/<game:game_id>/seats/<int:seat>/hand-over", seats.hand_over, name="hand_over"),
    path("g/<game:game_id>/rename", home.rename, name="rename"),
    path("g/<game:game_id>/delete", home.delete, name="delete"),
    path("g/<game:game_id>/restore", home.restore, name="restore"),
    path("g/<game:game_id>/rematch", seats.rematch, name="rematch"),
    path("g/<game:game_id>/host", seats.claim_host, name="claim_host"),
    path("g/<game:game_id>/seat", seats.claim_seat, name="claim_seat"),
    path("g/<game:game_id>/seats", seats.seats_play, name="seats_play"),
    path("g/<game:game_id>/qr.svg", seats.qr_code, name="qr"),
    path("g/<game:game_id>/chart.svg", results.chart, name="chart"),
    path("g/<game:game_id>/replay", results.replay, name="replay"),
    path("g/<game:game_id>/export.json", transfer.export_json, name="export_json"),
    path("g/<game:game_id>/sheet.csv", transfer.export_csv, name="export_csv"),
    path("import", transfer.import_game, name="import"),
    path("unlock", password.unlock, name="unlock"),
    path("api/openapi.json", api.schema, name="api_schema"),
    path("api/games", api.create_game, name="api_games"),
    path("api/games/<game:game_id>", api.game_detail, name="api_game"),
    path("api/games/<game:game_id>/events", game.events, name="api_events"),
    path("api/games/<game:game_id>/moves", api.play_move, name="api_moves"),
    path("api/games/<game:game_id>/seats/<int:seat>/claim", api.claim_seat, name="api_claim"),
    path("api/games/<game:game_id>/seats/<int:seat>/reissue", api.reissue_seat, name="api_reissue"),
    path("api/games/<game:game_id>/turns/last", api.undo_last_turn, name="api_undo"),
    # Each kind's own pages and API addresses.
    *(pattern for kind in KINDS.values() for pattern in kind.urlpatterns),
]

# Error pages in the reader's language (templates/403.html and 403_csrf.html are drawn by
# Django's own views; see games/errors.py for the others).
handler400 = "games.errors.bad_request"
handler404 = "games.errors.page_not_found"
handler500 = "games.errors.server_error"
