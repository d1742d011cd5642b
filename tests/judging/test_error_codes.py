"""Refusals of the penalty decisions and the guideline editions: the code, and nothing written."""

import pytest

from core.errors import DomainError
from judging import editions, services
from judging.models import GuidelineEdition, Infraction, PenaltyChange, PenaltyRecord
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


def test_an_added_infraction_needs_a_new_code(desk):
    shared = edition_for(tournament=desk.tournament)

    error = refused(
        "infraction_exists",
        editions.add_tournament_infraction,
        tournament=desk.tournament,
        code="1.4",
        name="Повтор",
        availability="any",
        penalties={"amateur": "caution"},
    )

    assert error.field == "code"
    assert edition_for(tournament=desk.tournament) == shared


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
