"""Every write that can move the standings, one after another: the cached standings table, the
judge report's standings and its export follow each one, as a fresh computation says (issue 27)."""

from judging import services as judging_services
from judging.models import PenaltyRecord
from judging.report import build_report
from judging.report.tables import standings_table as exported_standings
from tests.factories import Desk
from tournaments import selectors, services
from tournaments.models import Level, Match


def rows(standings):
    """Per player (by index in the desk): points, wins, draws, losses, and the marks."""
    return {
        row.registration.pk: (
            row.standing.points,
            row.standing.wins,
            row.standing.losses,
            row.disqualified,
            row.dropped,
            row.prize_eligible,
        )
        for row in standings
    }


def report_rows(desk, lines):
    """The report's standings (rows as the page shows them, ``StandingLine``) as ``rows``."""
    registration = {player.player.name: player.pk for player in desk.players}
    result = {}
    for line in lines:
        wins, _draws, losses = (int(n) for n in line["record"].split("–"))
        result[registration[line["name"]]] = (
            line["points"],
            wins,
            losses,
            line["disqualified"],
            line["dropped"],
            line["prize_eligible"],
        )
    return result


def follow(desk, expected_points):
    """The cache, the report and its export agree with a fresh computation, and the points are
    the ones expected (listed by player index)."""
    tournament = desk.tournament
    fresh = rows(selectors.standings(tournament=tournament))
    cached = rows(selectors.standings_table(tournament=tournament))
    reported = report_rows(desk, build_report(tournament=tournament).standings)
    table = exported_standings(tournament=tournament)
    points_column = [column.header for column in table.columns].index("Очки")
    name_column = [column.header for column in table.columns].index("Игрок")
    exported = {row[name_column]: row[points_column] for row in table.rows}
    assert cached == fresh
    assert reported == fresh
    assert [fresh[player.pk][0] for player in desk.players] == expected_points
    assert [exported[player.player.name] for player in desk.players] == expected_points
    return fresh


def mark(desk, player):
    return rows(selectors.standings_table(tournament=desk.tournament))[desk.players[player].pk]


def test_every_write_that_moves_standings_is_followed_by_the_cache_and_the_report(db):
    desk = Desk.create(level=Level.PROFESSIONAL)
    follow(desk, [0, 0, 0, 0])

    # Round 1. A result entered at once.
    desk.pair((0, 1), (2, 3))
    services.enter_result(match=desk.match_of(0), player1_wins=2, player2_wins=0)
    follow(desk, [3, 0, 0, 0])

    # A game loss: the match goes on, so the standings stay; its repeat is a match loss that
    # ends the match at once.
    desk.issue(2, "1.1")
    follow(desk, [3, 0, 0, 0])
    match_loss = desk.issue(2, "1.1")
    assert match_loss.penalty.key == "match_loss"
    follow(desk, [3, 0, 0, 3])

    # A correction of a finished result.
    first = Match.objects.get(player1=desk.players[0])
    services.correct_result(
        match=first,
        player1_wins=1,
        player2_wins=2,
        draws=0,
        reason="Перепутали",
        corrected_by=desk.head,
    )
    follow(desk, [0, 3, 0, 3])

    # Round 2. A disqualification takes the match in progress and marks the player.
    desk.pair((0, 2), (1, 3))
    disqualification = desk.issue(1, "6.1")
    follow(desk, [0, 3, 0, 6])
    assert mark(desk, 1)[3:] == (True, False, False)

    # Its amendment down to a warning: the served loss stays, the marks follow.
    judging_services.amend_penalty(
        record=disqualification, to_rank=2, author=desk.head, reason="Не доказано"
    )
    follow(desk, [0, 3, 0, 6])
    assert mark(desk, 1)[3:] == (False, False, True)

    # The revocation of the round-1 match loss: its served loss stays until the correction.
    judging_services.revoke_penalty(record=match_loss, author=desk.head, reason="Ошибка")
    follow(desk, [0, 3, 0, 6])
    lost = Match.objects.get(round__number=1, player1=desk.players[2])
    services.correct_result(
        match=lost, player1_wins=2, player2_wins=1, draws=0, reason="Отмена", corrected_by=desk.head
    )
    follow(desk, [0, 3, 3, 3])
    assert PenaltyRecord.objects.get(pk=match_loss.pk).status == "revoked"

    # A game by game result and a drop.
    desk.win(0)
    follow(desk, [0, 3, 3, 3])
    desk.win(0)
    follow(desk, [3, 3, 3, 3])
    services.drop_player(registration=desk.players[3])
    follow(desk, [3, 3, 3, 3])
    assert mark(desk, 3)[3:] == (False, True, True)
