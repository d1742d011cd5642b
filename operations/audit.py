"""What the operator may need to reconstruct later goes into the log: failed sign-ins and every
change of a penalty record (issued, sent to the head judge, confirmed, declined, amended, revoked),
with who did it. The log line is written once the change is committed, never for a rolled-back one.
"""

import logging
from typing import Any

from django.contrib.auth.signals import user_login_failed
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
    post_save.connect(
        penalty_changed, sender="judging.PenaltyChange", dispatch_uid="desk-penalty-changed"
    )
