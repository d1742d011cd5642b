"""What is added to a ruling once it is on record (issue 17): the player's acknowledgement of a
penalty, and the statements of a disqualification's investigation.

Both are written once and never changed: there is no function here, or anywhere, that updates or
deletes them. A correction to a statement is a new statement.
"""

import uuid

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.text import bounded_text
from judging.models import (
    AcknowledgementKind,
    InvestigationStatement,
    PenaltyAcknowledgement,
    PenaltyRecord,
    StatementRole,
)
from judging.services.guards import judge_role, locked

# A statement is a few paragraphs typed on a tablet; the name is a person's name.
STATEMENT_MAX_LENGTH = 4000
AUTHOR_NAME_MAX_LENGTH = 200


def acknowledge_penalty(
    *, record: PenaltyRecord, judge: User, declined: bool = False
) -> PenaltyAcknowledgement:
    """The player taps their name on the judge's tablet (or the judge marks that they declined):
    stored with the time, once. A second tap finds the first answer and is refused."""
    with transaction.atomic():
        record = locked(record)
        judge_role(record.tournament, judge)
        if not record.is_in_force:
            raise DomainError(
                "not_in_force",
                _("Only a penalty in force is confirmed by the player; this one is not."),
            )
        if PenaltyAcknowledgement.objects.filter(record=record).exists():
            raise DomainError(
                "already_acknowledged",
                _("The player's answer to this penalty is already recorded; it cannot be changed."),
            )
        return PenaltyAcknowledgement.objects.create(
            record=record,
            kind=AcknowledgementKind.DECLINED if declined else AcknowledgementKind.ACKNOWLEDGED,
            recorded_by=judge,
        )


def ensure_statement(*, role: str, author_name: str, text: str) -> tuple[str, str]:
    """The one rule for a statement's input: who speaks, their name, a text neither empty nor too
    long. Returns the name and the text stripped."""
    if role not in StatementRole.values:
        raise DomainError("bad_role", _("Choose who is speaking."), field="role")
    author_name = bounded_text(
        author_name,
        max_length=AUTHOR_NAME_MAX_LENGTH,
        missing=DomainError(
            "name_required", _("Write the name of the person speaking."), field="author_name"
        ),
        too_long=DomainError(
            "name_too_long",
            _("Keep the name under %(count)s characters.") % {"count": AUTHOR_NAME_MAX_LENGTH},
            field="author_name",
        ),
    )
    text = bounded_text(
        text,
        max_length=STATEMENT_MAX_LENGTH,
        missing=DomainError("statement_required", _("Write the statement."), field="text"),
        too_long=DomainError(
            "statement_too_long",
            _("Keep the statement under %(count)s characters; add a second one for the rest.")
            % {"count": STATEMENT_MAX_LENGTH},
            field="text",
        ),
    )
    return author_name, text


def add_statement(
    *,
    record: PenaltyRecord,
    judge: User,
    role: str,
    author_name: str,
    text: str,
    client_key: uuid.UUID,
) -> InvestigationStatement:
    """Append a statement to a disqualification's investigation, typed on ``judge``'s tablet by the
    person named (the player may have no account). A resend with the same key records once."""
    with transaction.atomic():
        record = locked(record)
        judge_role(record.tournament, judge)
        author_name, text = ensure_statement(role=role, author_name=author_name, text=text)
        if not record.is_investigated:
            raise DomainError(
                "not_investigated",
                _("Statements are taken only for a disqualification or a request for one."),
            )
        existing = InvestigationStatement.objects.filter(
            record=record, client_key=client_key
        ).first()
        if existing is not None:
            return existing
        return InvestigationStatement.objects.create(
            record=record,
            role=role,
            author_name=author_name,
            text=text,
            taken_by=judge,
            client_key=client_key,
        )
