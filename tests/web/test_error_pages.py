"""400, 403, 404 and 500 are the app's own pages, in the reader's language, with a way home,
as a visitor sees them with DEBUG off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client, override_settings

DA = {"accept-language": "da"}
EN = {"accept-language": "en"}
HOME = 'href="/"'


@pytest.fixture(autouse=True)
def production(current_translations: None) -> Iterator[None]:
    with override_settings(
        DEBUG=False, ALLOWED_HOSTS=["testserver"], ROOT_URLCONF="tests.web.error_urls"
    ):
        yield


@pytest.fixture
def visitor() -> Client:
    """A browser that sees what the server answers, errors included."""
    return Client(raise_request_exception=False)


@pytest.mark.django_db
def test_a_game_link_that_leads_nowhere_says_so_in_danish(visitor: Client) -> None:
    response = visitor.get("/g/nosuchgame/", headers=DA)
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="da">' in html and "Det spil findes ikke." in html
    assert "Tilbage til forsiden" in html and HOME in html
    assert "Not Found" not in html and "Page not found" not in html


@pytest.mark.django_db
def test_a_game_link_that_leads_nowhere_says_so_in_english(visitor: Client) -> None:
    html = visitor.get("/g/nosuchgame/", headers=EN).content.decode()
    assert "There is no such game." in html and "Back to the home page" in html


def test_any_other_missing_page_is_the_apps_own_in_both_languages(visitor: Client) -> None:
    danish = visitor.get("/no/such/page", headers=DA)
    assert danish.status_code == 404
    assert "Siden findes ikke" in danish.content.decode()
    english = visitor.get("/no/such/page", headers=EN).content.decode()
    assert "Page not found" in english and HOME in english


def test_the_language_cookie_wins_on_an_error_page(visitor: Client) -> None:
    visitor.cookies["django_language"] = "da"
    assert "Siden findes ikke" in visitor.get("/nowhere", headers=EN).content.decode()


def test_an_unknown_api_address_answers_json(visitor: Client) -> None:
    response = visitor.get("/api/nothing", headers=DA)
    assert response.status_code == 404
    assert response.json() == {"error": "Der er intet på denne adresse."}


def test_a_server_error_needs_no_database_and_speaks_danish(visitor: Client) -> None:
    # No django_db mark: any query from the error page would fail this test.
    response = visitor.get("/boom", headers=DA)
    html = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="da">' in html and "Noget gik galt" in html
    assert "Tilbage til forsiden" in html and HOME in html


def test_a_server_error_in_english_and_from_the_cookie(visitor: Client) -> None:
    assert "Something went wrong" in visitor.get("/boom", headers=EN).content.decode()
    visitor.cookies["django_language"] = "da"
    assert "Noget gik galt" in visitor.get("/boom", headers=EN).content.decode()


def test_a_server_error_in_the_api_answers_json(visitor: Client) -> None:
    response = visitor.get("/api/boom", headers=DA)
    assert response.status_code == 500
    assert response.json() == {"error": "Noget gik galt på serveren. Prøv igen om lidt."}


def test_a_forbidden_page_in_both_languages(visitor: Client) -> None:
    danish = visitor.get("/forbidden", headers=DA)
    assert danish.status_code == 403
    assert "Ingen adgang" in danish.content.decode()
    assert "Not allowed" in visitor.get("/forbidden", headers=EN).content.decode()


def test_a_bad_request_in_both_languages(visitor: Client) -> None:
    danish = visitor.get("/suspicious", headers=DA)
    assert danish.status_code == 400
    assert "Forespørgslen kunne ikke læses" in danish.content.decode()
    english = visitor.get("/suspicious", headers=EN).content.decode()
    assert "The request could not be read" in english and HOME in english


def test_a_failed_csrf_check_gets_the_apps_page_in_both_languages() -> None:
    browser = Client(enforce_csrf_checks=True)
    danish = browser.post("/i18n/setlang/", {"language": "en"}, headers=DA)
    assert danish.status_code == 403
    html = danish.content.decode()
    assert "Formularen kunne ikke sendes" in html and "Tilbage til forsiden" in html
    english = browser.post("/i18n/setlang/", {"language": "da"}, headers=EN).content.decode()
    assert "The form could not be sent" in english
