import pytest

from decks import services
from decks.demo import pool_csv
from tests.factories import Desk


@pytest.fixture
def desk(db):
    """A professional tournament with deck lists, four players and the demo pool in Стандарт."""
    desk = Desk.create(players=4, level="professional", uses_decklists=True)
    report = services.import_card_pool(tournament=desk.tournament, name="Пул", content=pool_csv())
    assert report.ok, report.errors
    from decks.models import DeckFormat

    standard = DeckFormat.objects.get(slug="standard")
    services.update_rules(
        tournament=desk.tournament,
        deck_format=standard,
        pool=report.pool,
        main_min=40,
        main_max=None,
        extra_max=10,
        copy_limit=3,
        lifting_feature="Орда",
        combine_sections=True,
        check_legality=True,
        self_submission=True,
        deadline=None,
    )
    return desk


@pytest.fixture
def client(client):
    """The tests read the English text; the Russian is checked by the translation tests."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def django_capture_on_commit_callbacks(django_capture_on_commit_callbacks):
    """pytest-django's fixture, and then the tasks those callbacks queued (a re-check of the
    lists) run as the worker beside the server would run them."""
    from contextlib import contextmanager

    from tests.tasks import run_task_queue

    @contextmanager
    def capture(**options):
        with django_capture_on_commit_callbacks(**options) as callbacks:
            yield callbacks
        if options.get("execute"):
            run_task_queue()

    return capture
