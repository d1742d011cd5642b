"""Moving the test database's schema to a migration and back, for the tests of data migrations.

A test that migrates back must end with ``migrate_to_newest()`` (in a ``finally``): every later
test needs the whole schema, and a test that stopped at its own migration once left a later one
unapplied for the rest of the suite."""

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import Desk
from tournaments.models import Match


def migrate_to(targets: list[tuple[str, str]]) -> Apps:
    """Migrate to ``targets`` (forwards or backwards); the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_newest() -> Apps:
    """Migrate every app to its newest migration."""
    return migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())


def matches_in_two_rounds(desk: Desk) -> tuple[Match, Match]:
    """Player 0's match of round 1 (played out) and of round 2 (under way): rows of two rounds
    for a migration that gives each row its match's round."""
    from tournaments import services as tournament_services

    desk.pair((0, 1), (2, 3))
    first = desk.match_of(0)
    for player in (0, 2):
        tournament_services.enter_result(
            match=desk.match_of(player), player1_wins=2, player2_wins=0
        )
    desk.pair((0, 2), (1, 3))
    return first, desk.match_of(0)
