"""Every URL, as every role, with bad values in its query string and in each field of its forms.

The URLs come from the resolver, so a new page is walked without touching this test; the forms
come from the pages themselves (every form and ``hx-post`` the roles are shown), and the query
parameters from what each view reads. Required: no server error, no traceback, and no row changed
by a POST that was refused. Each POST runs in a savepoint rolled back afterwards, so every request
meets the same tournament.
"""

import contextlib
import copy
import hashlib
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib.messages import ERROR, get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.exceptions import NoReverseMatch
from django.utils.functional import cached_property

from core.uploads import MAX_UPLOAD_BYTES
from decks.services import save_decklist
from floor import services as floor_services
from tests.factories import Desk

HUGE = "9" * 4301  # past the 4,300 digits int() takes
# Control characters are refused for the whole request at once: each form meets them in every
# field together; each field alone meets the rest.
CONTROL_VALUES = ["Иван\x00", "\x1b[31m"]
# Dates at the edges of the calendar: year 1 (a date field; a date-time field reads it as
# midnight) and 9999 (a date-time field's), which once saved broke every page that read them.
FIELD_VALUES = [HUGE, "9" * 30, "-1", "1.5", "x" * 5000, "", "0001-01-01", "9999-12-31T23:59"]
# The contents an upload field meets: a spreadsheet's UTF-16 text, a NUL, an undecodable byte,
# one byte over the size limit.
FILE_VALUES = [
    "Анна;BH-1;Москва\n".encode("utf-16"),
    b"a;b\x00\n",
    b"\x98\x98\n",
    b"x" * (MAX_UPLOAD_BYTES + 1),
    *(value.encode() for value in ["x" * 5000, "", HUGE]),
]
# X-Forwarded-For as a client may forge it: it must never be read (core/clients.py).
FORWARDED_VALUES = ["\x00", "999.1.1.1, ::1, " + "x" * 3000, "203.0.113.7"]
QUERY_VALUES = ["\x00", "\x1b", HUGE, "9" * 30, "-1", "abc", "²", "x" * 5000, "", [HUGE, "1"]]
# For a URL no page of the role posts to: every known field at once.
FEW_BAD_VALUES = ["\x00", HUGE, "x" * 5000, "-1"]
ROLES = ["anonymous", "other_floor", "floor", "head", "organiser"]
CHECKED_APPS = {"players", "tournaments", "judging", "decks", "floor", "federation", "auth"}


def url_patterns(
    resolvers: list[URLPattern | URLResolver] | None = None, namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """Every named URL pattern of the project, with its namespaced name."""
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_patterns(entry.url_patterns, inner)
        elif entry.name:
            yield f"{namespace}{entry.name}", entry


class RecordingQueryDict(QueryDict):
    """A query string that notes which keys the view asked for."""

    read: set[str] = set()

    def __getitem__(self, key: str) -> str:
        RecordingQueryDict.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        RecordingQueryDict.read.add(key)
        return super().get(key, default)

    def getlist(self, key: str, default: object = None) -> list[str]:  # type: ignore[override]
        RecordingQueryDict.read.add(key)
        return super().getlist(key, default)

    def __contains__(self, key: object) -> bool:
        RecordingQueryDict.read.add(str(key))
        return super().__contains__(key)


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)


class FormFinder(HTMLParser):
    """The POST forms of a page: where each goes and its fields with their shown values."""

    def __init__(self, page_url: str) -> None:
        super().__init__()
        self.page_url = page_url
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form":
            action = attr.get("hx-post") or (
                (attr.get("action") or self.page_url)
                if attr.get("method", "").lower() == "post"
                else ""
            )
            self.current = Form(urlsplit(action).path) if action else None
            if self.current:
                self.forms.append(self.current)
        elif "hx-post" in attr and self.current is None:
            self.forms.append(Form(urlsplit(attr["hx-post"]).path))
        elif self.current is not None and tag in ("input", "textarea", "select", "button"):
            name = attr.get("name")
            if not name or name == "csrfmiddlewaretoken":
                return
            if attr.get("type") == "file":
                self.current.files.add(name)
            elif attr.get("type") in ("checkbox", "radio") and "checked" not in attr:
                self.current.fields.setdefault(name, "")
            else:
                self.current.fields[name] = attr.get("value", "")
            if tag == "select":
                self.select = name
        elif (
            tag == "option"
            and self.current is not None
            and self.select
            and ("selected" in attr or not self.current.fields.get(self.select))
        ):
            self.current.fields[self.select] = attr.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None


@dataclass
class World:
    desk: Desk
    other: Desk
    clients: dict[str, Client]
    cookies: dict[str, object]
    kwargs: dict[str, list[str]]

    def client(self, role: str) -> Client:
        client = self.clients[role]
        client.cookies = copy.deepcopy(self.cookies[role])  # a logout must not stick
        return client


def make_world() -> World:
    desk = Desk.create(players=6)
    # A deck list, so the deck check screen shows its form (names outside any pool, kept).
    save_decklist(
        registration=desk.players[0], text="3 Вампир", by=desk.floor, accept_unmatched=True
    )
    desk.pair((0, 1), (2, 3), (4, 5))
    desk.issue(0, "1.1")
    record = desk.issue(2, "6.1", by="floor")  # a request awaiting the head judge
    other = Desk.create(players=2)
    # The floor: the players' link, and a judge call from table 2 waiting for a judge.
    token = floor_services.ensure_public_pages(tournament=desk.tournament).token
    call = floor_services.call_judge(tournament=desk.tournament, table=2, caller="fuzz")
    clients: dict[str, Client] = {}
    cookies: dict[str, object] = {}
    users = {
        "anonymous": None,
        "other_floor": other.floor,
        "floor": desk.floor,
        "head": desk.head,
        "organiser": desk.organiser,
    }
    for role, user in users.items():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        clients[role] = client
        cookies[role] = copy.deepcopy(client.cookies)
    tournament = desk.tournament
    match = desk.match_of(0)
    kwargs = {
        "slug": [tournament.slug],
        "staff_id": [str(tournament.staff.get(user=desk.floor).pk)],
        "registration_id": [str(desk.players[0].pk)],
        "number": ["1"],
        "match_id": [str(match.pk)],
        "record_id": [str(record.pk)],
        "action": ["confirm", "decline", "amend", "revoke", "keep", "\x00"],
        "what": ["penalties", "standings", "decks", "calls", "extensions", "report"],
        "extension": ["csv", "xlsx"],
        "token": [token, "unknown-token"],
        "table": ["1", "9" * 30],
        "call_id": [str(call.pk)],
        # The admin's: every role here is turned away from it.
        "app_label": ["tournaments"],
        "object_id": ["1"],
        "content_type_id": ["1"],
        "id": ["1"],
    }
    return World(desk=desk, other=other, clients=clients, cookies=cookies, kwargs=kwargs)


def fingerprint() -> str:
    """Every row of the apps' tables and the accounts, as one hash."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        if model._meta.app_label in CHECKED_APPS:
            for row in model.objects.order_by("pk").values_list():
                digest.update(repr(row).encode())
    return digest.hexdigest()


def urls_of(world: World) -> tuple[list[str], list[str]]:
    """Each pattern's URL with real ids; and with ids too large for any table or for int(),
    or another value of a word in the path."""
    urls: list[str] = []
    variant_urls: list[str] = []
    for name, pattern in url_patterns():
        names = list(pattern.pattern.regex.groupindex)
        if not names:
            urls.append(reverse(name))
            continue
        if not set(names) <= set(world.kwargs):
            continue  # the admin's catch-all and the like: walked through their own pages
        base = {key: world.kwargs[key][0] for key in names}
        variants = [base]
        if name.startswith("admin:"):
            # Every role walked here is sent to sign in before the admin reads the path.
            urls.append(reverse(name, kwargs=base))
            continue
        for key in names:
            variants += [{**base, key: value} for value in world.kwargs[key][1:]]
            if key.endswith("_id") or key == "number":
                variants += [{**base, key: "9" * 30}, {**base, key: HUGE}]
        for kwargs in variants:
            with contextlib.suppress(NoReverseMatch):
                (urls if kwargs is base else variant_urls).append(reverse(name, kwargs=kwargs))
    return urls, variant_urls


def check(response, what: str) -> None:
    body = b"" if response.streaming else response.content
    assert response.status_code < 500, f"{what}: {response.status_code}"
    assert b"Traceback" not in body, f"{what}: traceback"


SHOWN_ERROR_TAG = re.compile(rb'<[^>]*(?:class="error"|role="alert")[^>]*>')


def refused(response) -> bool:
    if response.status_code >= 400:
        return True
    if any(message.level >= ERROR for message in get_messages(response.wsgi_request)):
        return True
    body = b"" if response.streaming else response.content
    # An error shown on the page; the offline notices every staff page carries wait hidden.
    shown_errors = [
        tag for tag in SHOWN_ERROR_TAG.findall(body) if not re.search(rb"\shidden[\s>=]", tag)
    ]
    return bool(shown_errors) or b"invalid" in body


def post(client: Client, url: str, data: dict[str, object], baseline: str, what: str) -> int:
    with transaction.atomic():
        response = client.post(url, data)
        check(response, what)
        if refused(response):
            assert fingerprint() == baseline, f"{what}: refused, yet rows changed"
        transaction.set_rollback(True)
    if response.status_code == 302 and "/login/" in response.url:
        return 401  # sent to sign in (the app's or the admin's)
    return response.status_code


@pytest.fixture
def recording_queries(monkeypatch):
    def get(request: WSGIRequest) -> QueryDict:
        return RecordingQueryDict(request.META.get("QUERY_STRING", ""))

    prop = cached_property(get)
    prop.__set_name__(WSGIRequest, "GET")
    monkeypatch.setattr(WSGIRequest, "GET", prop)
    return RecordingQueryDict


# The one test that walks the whole app: it grows with every URL (two minutes on a busy machine),
# so it has a longer limit than the suite's five minutes.
@pytest.mark.timeout(1200)
def test_no_url_breaks_on_bad_input_as_any_role(db, recording_queries, settings):
    settings.DEBUG = False
    world = make_world()
    baseline = fingerprint()
    walked: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()
    for role in ROLES:
        walk(world, role, baseline, recording_queries, walked)
    assert fingerprint() == baseline


def walk(
    world: World,
    role: str,
    baseline: str,
    recording_queries: type[RecordingQueryDict],
    walked: set[tuple[str, tuple[str, ...], tuple[str, ...]]],
) -> None:
    """One role's walk. A form's fields one by one are walked by the first role that may post
    it (what comes after the role check is the same for every role)."""
    client = world.client
    forms: dict[str, list[Form]] = {}
    urls, variant_urls = urls_of(world)
    for url in variant_urls:
        check(client(role).get(url), f"GET {url} as {role}")
        post(client(role), url, {}, baseline, f"POST {url} as {role}")
    for url in urls:
        recording_queries.read = set()
        response = client(role).get(url, {"probe": "1"})
        check(response, f"GET {url} as {role}")
        for forwarded in FORWARDED_VALUES:
            check(
                client(role).get(url, HTTP_X_FORWARDED_FOR=forwarded),
                f"GET {url} X-Forwarded-For={forwarded!r:.20} as {role}",
            )
        if response.status_code != 200:
            # Turned away before any parameter is read: one try with everything bad is enough.
            check(client(role).get(url, {"q": "\x00", "round": HUGE}), f"GET {url} as {role}")
            continue
        if not response.streaming:
            finder = FormFinder(url)
            finder.feed(response.content.decode())
            for form in finder.forms:
                forms.setdefault(form.action, []).append(form)
        for key in sorted(recording_queries.read - {"probe"}):
            for value in QUERY_VALUES:
                check(client(role).get(url, {key: value}), f"GET {url}?{key}={value!r:.20}")

    all_fields = sorted({name for found in forms.values() for f in found for name in f.fields})
    for url in urls:
        status = post(client(role), url, {}, baseline, f"POST {url} as {role}")
        if status in (401, 403, 404, 405):
            continue  # turned away before any field is read
        found = forms.get(urlsplit(url).path, [])
        if not found:
            for value in FEW_BAD_VALUES:
                data = dict.fromkeys(all_fields, value)
                post(client(role), url, data, baseline, f"POST {url} {value!r:.20} as {role}")
            continue
        shapes = {(tuple(sorted(form.fields)), tuple(sorted(form.files))): form for form in found}
        for shape, form in shapes.items():
            for value in CONTROL_VALUES:
                data = {name: value for name in form.fields}
                post(client(role), url, data, baseline, f"POST {url} all={value!r} as {role}")
            if (url, *shape) in walked:
                continue
            walked.add((url, *shape))
            for name in [*form.fields, *form.files]:
                values: list[str | bytes] = [*(FILE_VALUES if name in form.files else FIELD_VALUES)]
                for value in values:
                    data: dict[str, object] = dict(form.fields)
                    if "client_key" in data:
                        data["client_key"] = str(uuid.uuid4())
                    if isinstance(value, bytes):
                        data[name] = SimpleUploadedFile("x.csv", value)
                    else:
                        data[name] = value
                    what = f"POST {url} {name}={value!r:.20} as {role}"
                    post(client(role), url, data, baseline, what)
