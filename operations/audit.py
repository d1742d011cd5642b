"""What the operator may need to reconstruct later goes into the audit log: sign-ins (failed and
successful), every change of a penalty record (issued, sent to the head judge, confirmed,
declined, amended, revoked), result corrections and restores, with who did it. A line is written
once the change is committed, never for a rolled-back one.

The ``desk.audit`` logger has a file of its own (``logs/audit.log``, config/settings.py), apart
from the request lines: thousands of requests for made-up paths rotated the shared file away,
the audit line of a penalty issued just before included.
"""

import logging
from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db import transaction
from django.db.models.signals import post_save
from django.http import HttpRequest

from core.clients import client_address

logger = logging.getLogger("desk.audit")


def sign_in_failed(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    address = (client_address(request) if request is not None else None) or "?"
    logger.warning("Sign-in failed for %r from %s", credentials.get("username", ""), address)


def signed_in(sender: object, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    address = (client_address(request) if request is not None else None) or "?"
    logger.info("Signed in: %r from %s", user.get_username(), address)


def result_corrected(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created or kwargs.get("raw"):
        return
    line = "Result of match %s corrected by %s: %s-%s-%s -> %s-%s-%s; reason: %r"
    values = (
        instance.match_id,
        instance.corrected_by.get_username(),
        instance.before_player1_wins,
        instance.before_player2_wins,
        instance.before_draws,
        instance.player1_wins,
        instance.player2_wins,
        instance.draws,
        instance.reason,
    )
    transaction.on_commit(lambda: logger.info(line, *values), robust=True)


def penalty_changed(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created or kwargs.get("raw"):
        return
    author = instance.author
    line = (
        "Penalty record %s (tournament %s): %s by %s; penalty %s -> %s, status %s -> %s; reason: %r"
    )
    values = (
        instance.record_id,
        instance.record.tournament_id,
        instance.kind,
        author.get_username() if author is not None else "the system",
        instance.from_rank if instance.from_rank is not None else "-",
        instance.to_rank,
        instance.from_status or "-",
        instance.to_status,
        instance.reason,
    )
    transaction.on_commit(lambda: logger.info(line, *values), robust=True)


def connect() -> None:
    user_login_failed.connect(sign_in_failed, dispatch_uid="desk-sign-in-failed")
    user_logged_in.connect(signed_in, dispatch_uid="desk-signed-in")
    post_save.connect(
        result_corrected,
        sender="tournaments.ResultCorrection",
        dispatch_uid="desk-result-corrected",
    )
    post_save.connect(
        penalty_changed, sender="judging.PenaltyChange", dispatch_uid="desk-penalty-changed"
    )
