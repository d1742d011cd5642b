"""``/healthz`` for a reverse proxy or a monitor: the database answers and every migration is in."""

from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

_migrations_applied = False


def _pending_migrations() -> int:
    """How many migrations wait; once none do, this process does not look again."""
    global _migrations_applied
    if _migrations_applied:
        return 0
    executor = MigrationExecutor(connection)
    pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    _migrations_applied = pending == 0
    return pending


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        pending = _pending_migrations()
    except DatabaseError as error:
        return JsonResponse(
            {"status": "error", "database": f"unreachable: {error.__class__.__name__}"},
            status=503,
        )
    if pending:
        return JsonResponse(
            {"status": "error", "database": "ok", "migrations": f"{pending} not applied"},
            status=503,
        )
    return JsonResponse({"status": "ok", "database": "ok", "migrations": "applied"})
