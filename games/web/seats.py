"""Who holds which part of a game: the host link and the seats' links, claiming them, a new
link for a lost phone, the QR codes, letting seats play, and the rematch that takes the
whole table along."""

from __future__ import annotations

import io
from typing import Any

import segno
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import guesses, join_codes, kinds, store
from games.access import host_cookie_name, is_host, remember_host, remember_seat
from games.kinds import kind_of, offers
from games.models import Game, Seat
from games.web.common import HtmxHttpRequest, go_to, int_or_none, seat_link, share_url


@require_POST
def rematch(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can start a rematch."))
    if (existing := store.rematch_of(game)) is not None:
        # A second tap, or a second browser of the host's: one rematch, and everyone in it.
        return go_to(request, existing)
    new_game, host_key = store.start_rematch(game, kind_of(game).rematch)
    response = go_to(request, new_game.pk)
    remember_host(response, new_game, host_key)
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def claim_host(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host link: the key travels in the address's #fragment, which browsers never send,
    so it appears in no server log; the page posts it back once."""
    game = get_object_or_404(Game, pk=game_id)
    if request.method == "POST":
        key = request.POST.get("key", "").strip()
        if game.check_host_key(key):
            response = redirect("game", game.pk)
            remember_host(response, game, key)
            return response
        if guesses.blocked(request):
            return guesses.too_many(request)
        guesses.wrong_guess(request)
        return render(
            request,
            "games/claim_host.html",
            {"game": game, "error": _("That host key does not belong to this game.")},
            status=403,
        )
    return render(request, "games/claim_host.html", {"game": game})


@never_cache
@require_http_methods(["GET", "POST"])
def claim_seat(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A player's seat link: like the host link, its key travels after the '#'. Where the
    kind has seats to claim (hidden hands), the link claims the seat once, and this phone
    gets a key of its own."""
    game = get_object_or_404(Game, pk=game_id)
    context: dict[str, Any] = {"game": game, "seat_claim": True}
    if request.method == "POST":
        key = request.POST.get("key", "").strip()
        try:
            _position, key = store.open_seat_link(game, key)
        except store.SeatTakenError:
            # A race lost to another phone, or a link opened again: no guess.
            context["taken"] = True
            return render(request, "games/claim_host.html", context, status=403)
        except store.BadKeyError:
            pass
        else:
            response = redirect("game", game.pk)
            remember_seat(response, game, key)
            return response
        if guesses.blocked(request):
            return guesses.too_many(request)
        guesses.wrong_guess(request)
        context["error"] = _("That seat link does not belong to this game.")
        return render(request, "games/claim_host.html", context, status=403)
    return render(request, "games/claim_host.html", context)


@require_POST
def seats_play(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host lets players enter their own turns from their phones, or stops them."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can change who enters turns."))
    store.allow_seats_to_play(game.pk, allowed=request.POST.get("allowed") == "on")
    return redirect("game", game.pk)


@require_http_methods(["GET", "POST"])
def reissue(request: HtmxHttpRequest, game_id: str, seat: int) -> HttpResponse:
    """The host gives a seat a new link, for a lost phone: the old one stops working. Asked
    first (GET), since the seat's phone loses the seat at once."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game) or not offers(game, kinds.CLAIM):
        return HttpResponseForbidden(_("Only the host can give a seat a new link."))
    if request.method == "GET":
        row = get_object_or_404(Seat, game=game, position=seat - 1, computer=False)
        context = {"game": game, "seat": seat, "name": row.name}
        return render(request, "games/reissue_confirm.html", context)
    try:
        store.reissue_seat(game, seat - 1, request.COOKIES.get(host_cookie_name(game), ""))
    except Seat.DoesNotExist:
        raise Http404 from None
    return redirect(reverse("game", args=[game.pk]) + "#seat-links")


@require_POST
def hand_over(request: HtmxHttpRequest, game_id: str, seat: int) -> HttpResponse:
    """The host hands a seat (from 1) to the computer when its player leaves, or back to a
    person, whose new link the host's page then shows."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_host(request, game):
        return HttpResponseForbidden(_("Only the host can hand a seat to the computer."))
    if not 1 <= seat <= game.seats.count():
        raise Http404
    to_computer = request.POST.get("to") == "computer"
    try:
        store.hand_seat_over(
            game.pk,
            seat - 1,
            to_computer=to_computer,
            host_key=request.COOKIES.get(host_cookie_name(game), ""),
        )
    except store.TurnInProgressError:
        # Said the same for every kind: whatever the turn is made of, it is finished first.
        return HttpResponse(
            _("A turn is under way: finish it first, then hand the seat over."), status=409
        )
    return redirect(
        reverse("game", args=[game.pk]) + ("#hand-over" if to_computer else "#seat-links")
    )


@require_GET
def qr_code(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The game's QR code; with `?seat=N` (seats from 1), that seat's own link, for the host."""
    game = get_object_or_404(Game, pk=game_id)
    url = share_url(request, game)
    private = False
    if (seat := int_or_none(request.GET.get("seat"))) is not None:
        if not is_host(request, game) or not 1 <= seat <= game.seats.count():
            return HttpResponseForbidden(_("Only the host can show a seat's link."))
        url = seat_link(request, game, seat - 1).url  # a computer's seat has none: 404
        private = True
    svg = io.BytesIO()
    # A standalone file with its XML namespace (segno's inline form has none), so <img> shows it.
    segno.make(url, error="m").save(
        svg, kind="svg", scale=6, dark="#1d2b36", light="#ffffff", border=2, xmldecl=False
    )
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    if private:
        response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest) -> HttpResponse:
    """A game opened by its short code (`games.join_codes`), typed on a device that cannot
    scan the QR code. A wrong code counts as a wrong guess."""
    typed = request.POST.get("code", request.GET.get("code", "")).strip()
    if not typed:
        return render(request, "games/join.html", {})
    game_id = join_codes.game_for_code(typed)
    if game_id is not None:
        return redirect("game", game_id)
    if guesses.blocked(request):
        return guesses.too_many(request)
    guesses.wrong_guess(request)
    context = {
        "typed": typed,
        "error": _("No game has that code now. Check the letters on the host's screen."),
    }
    return render(request, "games/join.html", context, status=404)
