"""Every list is checked again, off the request and in batches, whenever what it is checked
against changes: the pool, the format, the rules, the hero rule (issue 28 item 4)."""

from django.urls import reverse

from decks import selectors, services
from decks.demo import correct_list
from decks.models import Card, DeckFormat, DeckListLine, Finding, RecheckRun
from tests.tasks import run_task_queue
from tournaments.services.setup import update_tournament

HERO = "Герой: Хакодар\n"


def save(desk, player, text):
    return services.save_decklist(registration=desk.players[player], text=text, by=desk.floor)


def rules_args(desk, **changes):
    rules = selectors.rules_for(tournament=desk.tournament)
    args = {
        "tournament": desk.tournament,
        "deck_format": rules.format,
        "pool": rules.pool,
        "main_min": rules.main_min,
        "main_max": rules.main_max,
        "extra_max": rules.extra_max,
        "copy_limit": rules.copy_limit,
        "lifting_feature": rules.lifting_feature,
        "combine_sections": rules.combine_sections,
        "check_legality": rules.check_legality,
        "hero_rule": rules.hero_rule,
        "self_submission": rules.self_submission,
        "deadline": rules.deadline,
    }
    return {**args, **changes}


def findings(desk):
    return sorted(
        (registration_id, sub_item, kind)
        for registration_id, sub_item, kind in Finding.objects.values_list(
            "registration_id", "sub_item", "kind"
        )
    )


def test_switching_the_hero_rule_off_and_on_rechecks_every_list(
    desk, django_capture_on_commit_callbacks
):
    save(desk, 0, HERO + correct_list("1 Лесная фея"))
    save(desk, 1, HERO + correct_list())
    assert findings(desk) == [(desk.players[0].pk, "д", "off_element")]
    with django_capture_on_commit_callbacks(execute=True):
        services.update_rules(**rules_args(desk, hero_rule=False))
    assert findings(desk) == []
    run = RecheckRun.objects.first()
    assert (run.total, run.done, run.is_running) == (2, 2, False)
    with django_capture_on_commit_callbacks(execute=True):
        services.update_rules(**rules_args(desk, hero_rule=True))
    assert findings(desk) == [(desk.players[0].pk, "д", "off_element")]


def test_a_format_changed_on_the_tournament_rechecks_the_lists(
    desk, django_capture_on_commit_callbacks
):
    save(desk, 0, correct_list("3 Шар смерти"))
    assert findings(desk) == [(desk.players[0].pk, "в", "not_legal")]
    with django_capture_on_commit_callbacks(execute=True):
        update_tournament(tournament=desk.tournament, format="constructed")
    assert findings(desk) == []
    assert selectors.rules_for(tournament=desk.tournament).format == DeckFormat.objects.get(
        slug="constructed"
    )


def test_the_request_only_enqueues_the_recheck(desk, django_capture_on_commit_callbacks):
    save(desk, 0, correct_list().replace("1 Вайл\n", ""))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.update_rules(**rules_args(desk, main_min=30))
    # Nothing re-checked yet: the work waits for the commit, then runs as a task.
    assert findings(desk) == [(desk.players[0].pk, "б", "main_short")]
    run = RecheckRun.objects.first()
    assert (run.total, run.done, run.is_running) == (1, 0, True)
    assert len(callbacks) == 1
    callbacks[0]()  # the commit: the task is queued for the worker, still not run
    assert findings(desk) == [(desk.players[0].pk, "б", "main_short")]
    assert run_task_queue() == 1
    assert findings(desk) == []
    run.refresh_from_db()
    assert (run.done, run.is_running) == (1, False)


def test_a_newer_recheck_supersedes_an_older_one(desk):
    save(desk, 0, correct_list())
    older = RecheckRun.objects.create(tournament=desk.tournament, total=1)
    RecheckRun.objects.create(tournament=desk.tournament, total=1)
    assert services.run_recheck(run_id=older.pk) == 0
    older.refresh_from_db()
    assert (older.done, older.is_running) == (0, False)


def test_the_progress_is_shown_and_polled_while_it_runs(client, desk):
    client.force_login(desk.floor)
    url = reverse("decks:recheck", args=[desk.tournament.slug])
    RecheckRun.objects.create(tournament=desk.tournament, total=2000, done=750)
    page = client.get(url).content.decode()
    assert "Checking every list again against the new pool and rules: 750 of 2000." in page
    assert 'hx-trigger="every 2s"' in page
    assert '<progress max="2000" value="750">37%</progress>' in page
    RecheckRun.objects.update(done=2000, finished_at="2026-12-04T12:30:00+03:00")
    page = client.get(url).content.decode()
    assert "Every list was checked again at 12:30." in page
    assert "hx-trigger" not in page
    overview = client.get(reverse("decks:overview", args=[desk.tournament.slug]))
    assert 'id="recheck-progress"' in overview.content.decode()


def test_a_new_pool_repoints_the_lines_and_reads_names_it_now_knows(
    desk, django_capture_on_commit_callbacks
):
    services.save_decklist(
        registration=desk.players[0],
        text=correct_list("1 Новинка"),
        by=desk.floor,
        accept_unmatched=True,
    )
    assert findings(desk) == [(desk.players[0].pk, "а", "unreadable")]
    names = [*sorted(set(Card.objects.values_list("name", flat=True))), "Новинка"]
    content = ("название\n" + "\n".join(names) + "\n").encode()
    with django_capture_on_commit_callbacks(execute=True):
        report = services.import_card_pool(
            tournament=desk.tournament, name="Новый", content=content
        )
    assert findings(desk) == []
    lines = DeckListLine.objects.filter(decklist__registration=desk.players[0])
    assert {line.card.pool_id for line in lines} == {report.pool.pk}
    assert lines.get(written_name="Новинка").card.name == "Новинка"


def test_with_the_database_backend_the_request_only_queues_the_task(
    desk, settings, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    from decks.tasks import recheck_tournament_lists

    save(desk, 0, correct_list().replace("1 Вайл\n", ""))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.update_rules(**rules_args(desk, main_min=30))
    callbacks[0]()  # the commit
    # Queued, not run: the organiser's request returned before any list was checked again.
    queued = DBTaskResult.objects.get(status="READY")
    run = RecheckRun.objects.first()
    assert (queued.task_path, queued.args_kwargs) == (
        "decks.tasks.recheck_tournament_lists",
        {"args": [run.pk], "kwargs": {}},
    )
    assert findings(desk) == [(desk.players[0].pk, "б", "main_short")]
    # What the worker (manage.py db_worker) does with it.
    assert recheck_tournament_lists.call(*queued.args_kwargs["args"]) == 1
    assert findings(desk) == []
    assert RecheckRun.objects.first().is_running is False
