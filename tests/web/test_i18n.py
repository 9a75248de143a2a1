"""English and Danish: a complete catalogue, pages and API errors in the reader's language,
the EN / DA switch, plurals, dates and the rules page."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import formats, timezone, translation

from games.access import host_cookie_name
from games.rules.dice import Turn as RuleTurn
from tests.factories import make_game, play

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
GETTEXT_MISSING = "gettext not installed: apt-get install gettext"
# What the project's makemessages scans: everything but the virtualenv, tests and docs.
SOURCES = ("manage.py", "thirty", "games", "templates")
DA = {"accept-language": "da"}

pytestmark = pytest.mark.django_db


# -- the catalogue ---------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    where: list[str] = field(default_factory=list)


def parse_po(text: str) -> list[Entry]:
    """The entries of a .po file (blocks separated by blank lines): enough of the format to
    check that every translation is there."""
    entries = []
    for block in re.split(r"\n\s*\n", text):
        entry, key = Entry(), ""
        for line in block.splitlines():
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#:"):
                entry.where += line[2:].split()
            elif line.startswith("#"):
                continue
            elif match := re.match(
                r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])? (".*")$', line
            ):
                key = match[1] if match[1] != "msgstr" else f"msgstr{match[2] or 0}"
                _append(entry, key, ast.literal_eval(match[3]), start=True)
            elif line.startswith('"'):
                _append(entry, key, ast.literal_eval(line))
        if entry.msgstr:
            entries.append(entry)
    return entries


def _append(entry: Entry, key: str, value: str, *, start: bool = False) -> None:
    if key == "msgid":
        entry.msgid += value
    elif key == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + value
    elif key.startswith("msgstr"):
        index = int(key.removeprefix("msgstr"))
        entry.msgstr[index] = ("" if start else entry.msgstr[index]) + value


def test_the_parser_reads_plurals_fuzzy_flags_and_continued_lines() -> None:
    entries = parse_po(
        '#: a.py:1\n#, fuzzy, python-format\nmsgid ""\n"long %(n)s"\nmsgstr "lang"\n\n'
        'msgid "%(n)s turn"\nmsgid_plural "%(n)s turns"\nmsgstr[0] "%(n)s tur"\nmsgstr[1] ""\n'
    )
    assert [(e.msgid, e.msgid_plural) for e in entries] == [
        ("long %(n)s", None),
        ("%(n)s turn", "%(n)s turns"),
    ]
    assert "fuzzy" in entries[0].flags and entries[0].where == ["a.py:1"]
    assert entries[1].msgstr == {0: "%(n)s tur", 1: ""}


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory: pytest.TempPathFactory) -> list[Entry]:
    """The Danish catalogue as makemessages makes it from today's code, merged with the
    translations in the repository: run in a copy, so the tree itself is never touched."""
    if not all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msgfmt")):
        pytest.skip(GETTEXT_MISSING)
    copy = tmp_path_factory.mktemp("project")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for name in (*SOURCES, "locale"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=ignore)
        else:
            shutil.copy2(source, copy / name)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "thirty.settings", "PYTHONPATH": str(copy)}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "da", "--no-obsolete", "-v", "0"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )
    po = copy / "locale" / "da" / "LC_MESSAGES" / "django.po"
    subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(po)], check=True)
    return parse_po(po.read_text(encoding="utf-8"))


def test_every_string_the_app_shows_has_a_danish_translation(
    fresh_catalogue: list[Entry],
) -> None:
    header, *entries = fresh_catalogue
    assert header.msgid == "" and "nplurals=2; plural=(n != 1);" in header.msgstr[0]
    assert len(entries) > 100  # the scan really found the app's strings
    untranslated = [
        f"{entry.msgid!r} ({', '.join(entry.where) or '?'})"
        for entry in entries
        if not entry.msgstr
        or any(not text for text in entry.msgstr.values())
        or (entry.msgid_plural is not None and sorted(entry.msgstr) != [0, 1])
    ]
    assert not untranslated, "Untranslated in locale/da/LC_MESSAGES/django.po:\n" + "\n".join(
        untranslated
    )
    fuzzy = [entry.msgid for entry in fresh_catalogue if "fuzzy" in entry.flags]
    assert not fuzzy, f"Fuzzy entries need a translator's check: {fuzzy}"


def test_the_catalogue_keeps_every_placeholder(fresh_catalogue: list[Entry]) -> None:
    for entry in fresh_catalogue[1:]:
        wanted = set(re.findall(r"%\(\w+\)s", entry.msgid + (entry.msgid_plural or "")))
        for text in entry.msgstr.values():
            found = set(re.findall(r"%\(\w+\)s", text))
            # A singular may leave out the count ("1 tur" spelled out), never add a name.
            assert found <= wanted and (found == wanted or entry.msgid_plural), entry.msgid


# Phrases that once read wrong to a Dane, with what replaced them (docs/glossary.md): none
# may come back, in any string.
BAD_DANISH = {
    "dukker din tur op": "Når det er din tur, kan du skrive den ind her",
    "Din tur dukker op": "Når det er din tur, kan du skrive den ind her",
    "og 30 er ude": "ved 30 er man ude",
    "nåede ikke over": "nåede ikke op på",
    "Tag min plads": "Brug denne telefon til min plads",
    "Hel %(margin)s": "Helbred %(margin)s",
    "heling": "helbredelse",
    "helede": "helbredte",
    "hele eller angribe": "helbrede eller angribe",
    "Næste til at slå": "Næste spiller",
    "appens læsning": "appens fortolkning",
    "Sådan læser appen": "Sådan fortolker appen",
    "Jagtens antal": "antallet, der skrives ind efter jagten",
    "passer ikke med": "stemmer ikke med",
    "Præcis udslagning": "Kun ud på præcis 30",
    "Gå ind": "Lås op",
    "så bordet er enige": "så alle ved bordet er enige",
    "kan ingen længere blive ramt": "ville ingen nogensinde kunne blive ramt igen",
    "terninger ramte": "terninger fundet",
    "terning ramte": "terning fundet",
    "Summen af de beholdte terninger": "Total for de beholdte terninger",
    "Slået i alt": "Turens total",
    # The second review (card game, history, merge and app-rolled strings).
    "ss plads": "%(whose)s plads, with games.names.possessive (Lars’ plads)",
    ")ss ": "%(whose)s, with games.names.possessive (Fortryd Lars’ 33?)",
    "fortrydelse": "da værten fortrød en tur",
    "ramte forbi": "ville have ført over 30",
    "Ramte et slag": "Fandt et slag … ingen terninger",
    "Hver sejr": "Hver vellykket tur",
    "sige en farve": "melde en farve",
    "sagde rød": "meldte rød",
    "sagde sort": "meldte sort",
    "trækkene er": "her spiller man kort (træk is drawing from the stock)",
    "Næste kort møder": "Bunkens farve",
    "hænderne": "kortene (på hånden)",
    "frøet": "startværdien (seed)",
    "forbliver offentlig": "er stadig offentlig",
    "Hver slået tur": "Hver tur, appen slog",
}


def repository_catalogue() -> list[Entry]:
    po = LOCALE / "da" / "LC_MESSAGES" / "django.po"
    return parse_po(po.read_text(encoding="utf-8"))[1:]


def test_no_phrase_that_read_wrong_in_danish_comes_back() -> None:
    found = [
        f"{bad!r} in {text!r}: write {good!r}"
        for entry in repository_catalogue()
        for text in entry.msgstr.values()
        for bad, good in BAD_DANISH.items()
        if bad.casefold() in text.casefold()
    ]
    assert not found, "\n".join(found)


def test_danish_uses_no_english_semicolons() -> None:
    """Danish ends the sentence or uses a dash where English writes a semicolon."""
    found = [
        text
        for entry in repository_catalogue()
        for text in entry.msgstr.values()
        if ";" in re.sub(r"&#?\w+;", "", text)  # an HTML entity is not punctuation
    ]
    assert not found, found


def test_the_dice_game_is_tredive_and_the_app_keeps_its_name() -> None:
    """The game is "Tredive" on Danish pages; "Thirty" in Danish is the app's own name only."""
    for entry in repository_catalogue():
        for text in entry.msgstr.values():
            if "Thirty" in text:
                assert re.search(r"(fra|af) Thirty\.|^Thirty: ", text), text
    by_id = {entry.msgid: entry.msgstr[0] for entry in repository_catalogue()}
    assert by_id["Thirty"] == "Tredive" and by_id["Thirty rules"] == "Regler for Tredive"


# -- pages in Danish -------------------------------------------------------------------------


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.usefixtures("current_translations")
def test_a_phone_asking_for_danish_gets_the_home_page_in_danish(client: Client) -> None:
    html = client.get("/", headers=DA).content.decode()
    assert '<html lang="da">' in html
    assert "Nyt spil" in html and "Spillere i pladsorden" in html and "Start spillet" in html
    assert "New game" not in html
    english = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert '<html lang="en">' in english and "New game" in english


@pytest.mark.usefixtures("current_translations")
def test_the_game_page_sheet_and_row_explanations_are_danish(client: Client) -> None:
    game = play(make_game(), RuleTurn(33, 2))
    html = client.get(f"/g/{game.pk}/", headers=DA).content.decode()
    assert "Point tilbage" in html and "Næste spiller" in html
    assert "Anna slog 33 og jagtede 3&#x27;ere: 2 terninger fundet → Ben −2." in html
    assert "Følg med på telefonen" in html
    assert "Tredive · 30 point til hver · slå 30" in text_of(html)


@pytest.mark.usefixtures("current_translations")
def test_the_host_is_asked_in_danish(client: Client) -> None:
    from games.access import host_cookie_name

    game = make_game()
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    html = client.post(f"/g/{game.pk}/turn", {"total": "33"}, headers=DA).content.decode()
    assert "Anna slår" in html and "33: hvor mange terninger viste 3?" in html


@pytest.mark.usefixtures("current_translations")
def test_the_history_counts_turns_with_plurals_in_both_languages(client: Client) -> None:
    play(make_game(name="One"), RuleTurn(20))
    play(make_game(name="Two"), RuleTurn(20), RuleTurn(20))
    danish = text_of(client.get("/", headers=DA).content.decode())
    assert "1 tur ·" in danish and "2 ture ·" in danish and "I gang" in danish
    english = text_of(client.get("/", headers={"accept-language": "en"}).content.decode())
    assert "1 turn ·" in english and "2 turns ·" in english


@pytest.mark.usefixtures("current_translations")
def test_dates_use_the_danish_format(client: Client) -> None:
    game = play(make_game(), RuleTurn(20))  # a game with no turns is not in the history
    html = client.get("/", headers=DA).content.decode()
    with translation.override("da"):
        shown = formats.date_format(timezone.localtime(game.created_at), "DATETIME_FORMAT")
    assert shown in html and re.search(r"\d+\. [a-zæøå]+ \d{4}", shown)


@pytest.mark.usefixtures("current_translations")
def test_the_switch_sets_the_language_cookie_without_a_session(client: Client) -> None:
    assert "django.contrib.sessions" not in settings.INSTALLED_APPS
    game = make_game()
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'action="/i18n/setlang/"' in page and f'name="next" value="/g/{game.pk}/"' in page
    assert 'value="en" lang="en" title="English" aria-pressed="true"' in page

    response = client.post("/i18n/setlang/", {"language": "da", "next": f"/g/{game.pk}/"})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "da" and int(cookie["max-age"]) >= 60 * 60 * 24 * 300

    # The cookie now wins over what the browser asks for.
    after = client.get(f"/g/{game.pk}/", headers={"accept-language": "en"}).content.decode()
    assert '<html lang="da">' in after and "Point tilbage" in after
    assert 'value="da" lang="da" title="Dansk" aria-pressed="true"' in after

    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "New game" in client.get("/", headers=DA).content.decode()


@pytest.mark.usefixtures("current_translations")
def test_the_switch_never_sends_a_phone_back_to_a_post_only_address(client: Client) -> None:
    from games.access import host_cookie_name

    game = make_game()
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    html = client.post(f"/g/{game.pk}/turn", {"total": "99"}).content.decode()
    assert f'name="next" value="/g/{game.pk}/"' in html


@pytest.mark.usefixtures("current_translations")
def test_api_errors_follow_accept_language(client: Client) -> None:
    created = client.post(
        "/api/games",
        json.dumps({"players": ["Anna", "Ben"]}),
        content_type="application/json",
    ).json()
    url = f"/api/games/{created['id']}/turns"
    turn = json.dumps({"total": 40})
    headers = {"X-Host-Key": created["host_key"]}
    danish = client.post(url, turn, content_type="application/json", headers=headers | DA)
    assert danish.status_code == 422
    assert danish.json() == {"error": "Seks terninger giver en total fra 6 til 36."}
    english = client.post(url, turn, content_type="application/json", headers=headers)
    assert english.json() == {"error": "Six dice make a total from 6 to 36."}
    bad = client.post("/api/games", "{nope", content_type="application/json", headers=DA)
    assert bad.status_code == 400 and bad.json()["error"] == (
        "Forespørgslens indhold er ikke gyldig JSON."
    )


# -- the rules page --------------------------------------------------------------------------


@pytest.mark.usefixtures("current_translations")
def test_the_rules_page_has_a_section_per_game_in_both_languages(client: Client) -> None:
    english = text_of(client.get("/rules/").content.decode())
    for words in (
        "How to play",
        "How the app keeps score",
        "Damage is lost at an empty seat",
        "When a failed turn costs something, the damage stays lost",
        "Precise elimination",
        "A player on exactly 30 plays on",
        "also the roller’s own shortfall",
        "Players level on the fewest points share the win",
        "a total exactly on the target costs nothing",
    ):
        assert words in english
    html = client.get("/rules/", headers=DA).content.decode()
    assert 'id="thirty"' in html and 'id="thirty-s"' in html
    danish = text_of(html)
    for words in ("Sådan spiller man", "Sådan holder appen regnskab", "margenen", "ude"):
        assert words in danish
    assert "How to play" not in danish


@pytest.mark.usefixtures("current_translations")
def test_the_rules_page_is_linked_from_the_header_and_the_home_page(client: Client) -> None:
    html = client.get("/").content.decode()
    assert html.count('href="/rules/"') >= 2


# -- lists of names and signed numbers -------------------------------------------------------


@pytest.mark.usefixtures("current_translations")
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["", "Anna", "Anna and Ben", "Anna, Ben and Cleo", "Anna, Ben, Cleo and Dan"]),
        ("da", ["", "Anna", "Anna og Ben", "Anna, Ben og Cleo", "Anna, Ben, Cleo og Dan"]),
    ],
)
def test_names_are_listed_as_each_language_lists_them(language: str, expected: list[str]) -> None:
    from games.names import join_names

    names = ["Anna", "Ben", "Cleo", "Dan"]
    with translation.override(language):
        assert [join_names(names[:n]) for n in range(5)] == expected


# English adds ’s to every name. Danish adds s, but only an apostrophe after s, x or z, and ’s
# after anything that is not a small letter, so that the s is not read as part of the name.
POSSESSIVES = [
    ("Anna", "Anna’s", "Annas"),
    ("Ben", "Ben’s", "Bens"),
    ("Lars", "Lars’s", "Lars’"),
    ("Anders", "Anders’s", "Anders’"),
    ("Niels", "Niels’s", "Niels’"),
    ("LARS", "LARS’s", "LARS’"),
    ("Max", "Max’s", "Max’"),
    ("Felix", "Felix’s", "Felix’"),
    ("Liz", "Liz’s", "Liz’"),
    ("Schultz", "Schultz’s", "Schultz’"),
    ("Søren", "Søren’s", "Sørens"),
    ("Åse", "Åse’s", "Åses"),
    ("Bo 2", "Bo 2’s", "Bo 2’s"),
    ("JP", "JP’s", "JP’s"),
    ("Ｓ", "Ｓ’s", "Ｓ’"),  # fullwidth, as names are compared
]


@pytest.mark.usefixtures("current_translations")
@pytest.mark.parametrize(("name", "english", "danish"), POSSESSIVES)
def test_a_name_in_the_genitive_follows_each_language(name: str, english: str, danish: str) -> None:
    from games.names import possessive

    with translation.override("en"):
        assert possessive(name) == english
    with translation.override("da"):
        assert possessive(name) == danish


@pytest.mark.usefixtures("current_translations")
def test_undo_and_seat_links_write_the_genitive_of_names_ending_in_s(client: Client) -> None:
    game = play(make_game(players=["Lars", "Anna", "Max"]), RuleTurn(20), RuleTurn(33, 1))
    client.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    undo = text_of(client.get(f"/g/{game.pk}/undo", headers=DA).content.decode())
    assert "Fortryd Annas 33 (Max −1)?" in undo and "Behold turen" in undo
    english = text_of(client.get(f"/g/{game.pk}/undo").content.decode())
    assert "Undo Anna’s 33 (Max −1)?" in english
    play(game, RuleTurn(31, 1))
    undo = text_of(client.get(f"/g/{game.pk}/undo", headers=DA).content.decode())
    assert "Fortryd Max’ 31 (Lars −1)?" in undo
    page = client.get(f"/g/{game.pk}/", headers=DA).content.decode()
    assert "QR-kode til Lars’ plads" in page and "Kopiér Lars’ link" in page
    assert "Kopiér Annas link" in page and "Kopiér Max’ link" in page
    assert "Larss" not in page and "Maxs" not in page
    deleting = text_of(client.get(f"/g/{game.pk}/delete", headers=DA).content.decode())
    assert "Behold spillet" in deleting


@pytest.mark.usefixtures("current_translations")
def test_the_default_game_name_lists_three_players_and_counts_the_rest() -> None:
    from games.names import default_game_name

    friday = date(2026, 12, 4)
    with translation.override("da"):
        assert default_game_name(["Anna", "Ben"], friday) == "4. december: Anna og Ben"
        assert (
            default_game_name(["A", "B", "C", "D", "E"], friday) == "4. december: A, B, C og 2 til"
        )
    with translation.override("en"):
        assert default_game_name(["A", "B", "C", "D"], friday) == "December 4: A, B, C and 1 more"


@pytest.mark.usefixtures("current_translations")
def test_shared_wins_and_the_history_list_names_with_og(client: Client) -> None:
    rules = {"preset": "30s", "end": "first_out"}
    game = play(make_game(players=["Anna", "Ben", "Cleo"], rules=rules), RuleTurn(36, 6))
    html = text_of(client.get(f"/g/{game.pk}/", headers=DA).content.decode())
    assert "Anna og Cleo deler sejren!" in html
    english = text_of(client.get(f"/g/{game.pk}/").content.decode())
    assert "Anna and Cleo share the win!" in english
    home = text_of(client.get("/", headers=DA).content.decode())
    assert "Anna, Ben og Cleo" in home and "Vundet af Anna og Cleo" in home


@pytest.mark.usefixtures("current_translations")
def test_an_unnamed_game_is_named_after_its_players_in_the_api_too(client: Client) -> None:
    created = client.post(
        "/api/games",
        json.dumps({"players": ["Anna", "Ben", "Cleo"]}),
        content_type="application/json",
        headers=DA,
    ).json()
    with translation.override("da"):
        today = formats.date_format(timezone.localdate(), "MONTH_DAY_FORMAT")
    assert created["name"] == f"{today}: Anna, Ben og Cleo"


@pytest.mark.usefixtures("current_translations")
def test_healing_cells_show_a_real_minus_sign_and_exports_stay_numbers(client: Client) -> None:
    rules = {"preset": "30s", "healing": True}
    game = play(
        make_game(players=["Anna", "Ben"], rules=rules),
        RuleTurn(26),
        RuleTurn(30),
        RuleTurn(33, heal=True),
    )
    for headers in ({}, DA):
        html = client.get(f"/g/{game.pk}/", headers=headers).content.decode()
        row = re.search(r'<tr id="turn-3".*?</tr>', html, re.S)
        assert row and '<td class="rolled hit">−3</td>' in row[0], row
        assert "-3<" not in html
    csv = client.get(f"/g/{game.pk}/sheet.csv").content.decode()
    assert ",-3" in csv and "−" not in csv
