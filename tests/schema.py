"""Moving the test database's schema to a migration and back, for the tests of data migrations.

A test that migrates back must end with ``migrate_to_newest()`` (in a ``finally``): every later
test needs the whole schema, and a test that stopped at its own migration once left a later one
unapplied for the rest of the suite."""

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]) -> Apps:
    """Migrate to ``targets`` (forwards or backwards); the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_newest() -> Apps:
    """Migrate every app to its newest migration."""
    return migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
