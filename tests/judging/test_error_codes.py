"""Refusals of the penalty decisions, the guideline editions, the head judge's console and the
scenario runner: the code, and nothing written."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from core.errors import DomainError
from judging import editions, services
from judging.models import GuidelineEdition, Infraction, PenaltyChange, PenaltyRecord
from judging.scenarios import run_scenario
from judging.selectors import edition_for


def snapshot():
    return (
        list(PenaltyRecord.objects.values_list("id", "status", "rank", "revocation_requested")),
        PenaltyChange.objects.count(),
        GuidelineEdition.objects.count(),
        list(Infraction.objects.values_list("id", "code", "name").order_by("id")),
    )


def refused(expected, action, /, **kwargs):
    before = snapshot()
    with pytest.raises(DomainError) as caught:
        action(**kwargs)
    assert caught.value.code == expected
    assert snapshot() == before
    return caught.value


def test_a_revocation_is_asked_once(desk):
    record = desk.issue(0, "1.4", moment="between_matches")
    services.request_revocation(record=record, judge=desk.floor, reason="не тот игрок")

    refused(
        "revocation_already_requested",
        services.request_revocation,
        record=record,
        judge=desk.floor,
        reason="ещё раз",
    )


def test_only_a_requested_revocation_can_be_declined(desk):
    record = desk.issue(0, "1.4", moment="between_matches")

    refused(
        "no_revocation_request",
        services.decline_revocation,
        record=record,
        head_judge=desk.head,
        reason="остаётся",
    )


@pytest.mark.parametrize("action", ["revoke", "confirm"])
def test_a_reason_over_two_thousand_characters_is_refused(desk, action):
    record = desk.issue(0, "1.4", moment="between_matches")
    reason = "я" * 2001

    if action == "revoke":
        refused(
            "reason_too_long",
            services.revoke_penalty,
            record=record,
            author=desk.head,
            reason=reason,
        )
    else:
        refused(
            "reason_too_long",
            services.confirm_request,
            record=record,
            head_judge=desk.head,
            reason=reason,
        )


def test_replacing_a_shipped_infraction_needs_a_reason(desk):
    shared = edition_for(tournament=desk.tournament)

    error = refused(
        "replacement_reason_required",
        editions.add_tournament_infraction,
        tournament=desk.tournament,
        code="1.4",
        name="Повтор",
        availability="any",
        penalties={"amateur": "caution"},
        replacement_reason="  ",
    )

    assert error.field == "replacement_reason"
    assert "1.4" in str(error.message)
    assert edition_for(tournament=desk.tournament) == shared


def test_an_infraction_a_record_names_cannot_be_replaced(desk):
    desk.pair((0, 1), (2, 3))
    desk.issue(0, "1.4")
    edition = edition_for(tournament=desk.tournament)

    error = refused(
        "infraction_in_use",
        editions.add_tournament_infraction,
        tournament=desk.tournament,
        code="1.4",
        name="Повтор",
        availability="any",
        penalties={"amateur": "warning"},
        replacement_reason="Правила турнира",
    )

    assert error.field == "code"
    infraction = edition_for(tournament=desk.tournament).infractions.get(code="1.4")
    assert (infraction.penalty_amateur, infraction.replaced_because) == (1, "")
    assert edition_for(tournament=desk.tournament) == edition  # nothing was made


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"code": " ", "name": "Новое"}, "infraction_incomplete"),
        ({"code": "2.1", "name": "Новое", "availability": "sometimes"}, "unknown_availability"),
        ({"code": "2.1", "name": "Новое", "penalties": {"amateur": "scolding"}}, "unknown_penalty"),
        ({"code": "2.1", "name": "Новое", "penalties": {"galactic": "caution"}}, "unknown_level"),
    ],
)
def test_an_infraction_the_edition_cannot_hold_is_refused(db, fields, code):
    edition = GuidelineEdition.objects.get()

    refused(
        code,
        editions.put_infraction,
        edition=edition,
        **{"penalties": {"amateur": "caution"}, **fields},
    )


def test_an_infraction_opening_an_unnamed_section_needs_its_name(desk):
    error = refused(
        "section_name_required",
        editions.add_tournament_infraction,
        tournament=desk.tournament,
        code="4.1",
        name="Новое",
        availability="any",
        penalties={"amateur": "caution"},
    )

    assert "4" in str(error.message)


def message_codes(response):
    """The codes of the refusals a view told as messages (``core.http.message_refusal``)."""
    return [message.extra_tags for message in get_messages(response.wsgi_request)]


def console_act(client, desk, record, action, data):
    return client.post(
        reverse("judging:console-act", args=[desk.tournament.slug, record.pk, action]), data
    )


@pytest.mark.parametrize("action", ["decline", "confirm", "revoke"])
def test_a_reason_from_the_console_too_long_to_keep_is_refused(client, desk, action):
    record = desk.issue(0, "6.1", moment="between_matches", by="floor")  # awaits the head judge
    client.force_login(desk.head)
    before = snapshot()

    response = console_act(client, desk, record, action, {"reason": "я" * 2001, "next": "console"})

    assert response.status_code == 302
    assert message_codes(response) == ["bad_reason"]
    assert snapshot() == before


def test_an_amendment_from_the_console_without_a_penalty_is_refused(client, desk):
    record = desk.issue(0, "1.4", moment="between_matches")
    client.force_login(desk.head)
    before = snapshot()

    response = console_act(
        client, desk, record, "amend", {"to_rank": "сильнее", "reason": "ошибка", "next": "console"}
    )

    record.refresh_from_db()
    assert response.status_code == 302
    assert message_codes(response) == ["bad_penalty"]
    assert snapshot() == before
    assert record.status == "in_force"


def scenario(*steps):
    return {
        "title": "Отказ",
        "tournament": {"level": "amateur", "decklists": True},
        "players": ["Алиса", "Борис"],
        "steps": [
            {"pair": [["Алиса", "Борис"]]},
            {
                "penalty": {"player": "Алиса", "infraction": "1.4", "moment": "in_game"},
                "expect": {"penalty": "caution"},
            },
            *steps,
        ],
    }


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ({"confirm": {"player": "Алиса"}}, "nothing_awaiting"),
        ({"decline": {"player": "Алиса", "reason": "нет"}}, "nothing_awaiting"),
        (
            {"amend": {"player": "Алиса", "infraction": "1.1", "to": "warning", "reason": "x"}},
            "no_such_penalty",
        ),
        (
            {"revoke": {"player": "Алиса", "infraction": "stacking", "reason": "x"}},
            "no_such_penalty",
        ),
    ],
)
def test_a_scenario_step_with_no_record_to_act_on_is_refused(db, step, code):
    unexpected = run_scenario(scenario(step), source="x.json")

    assert unexpected.problem.startswith("step 3: refused: ")
    assert unexpected.problem.endswith(f"[{code}]")
    # Expected, the refusal leaves the player's records as they were.
    expected = run_scenario(
        scenario(
            {**step, "expect": {"refused": True}},
            {
                "check": {"player": "Алиса"},
                "expect": {"penalties": ["caution"], "pending": [], "status": "playing"},
            },
        ),
        source="x.json",
    )
    assert expected.passed, expected.line
    assert snapshot()[:2] == ([], 0)  # the runner rolled everything back
