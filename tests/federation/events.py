"""A finished event with a suspension, built through the services: used in the tests' own
database and, as a script, in the separate databases of the round trip."""

import uuid

from judging import services
from judging.penalties import Rank
from judging.services import rulings
from players.services import create_player
from tests.factories import Desk
from tournaments import services as tournament_services
from tournaments.models import Level


def finished_event(*, slug: str, name: str, members: list[tuple[str, str]], suspend: bool) -> Desk:
    """Four players (name, membership id); round 1: player 0 disqualified with a statement (and
    suspended, if ``suspend``), player 2 beats player 3 and acknowledges a caution; finished."""
    desk = Desk.create(
        players=0, slug=slug, name=name, level=Level.PROFESSIONAL, head_judge_is_official=True
    )
    for member_name, member_id in members:
        desk.players.append(
            tournament_services.register_player(
                tournament=desk.tournament,
                player=create_player(name=member_name, membership_id=member_id),
            )
        )
    desk.pair((0, 1), (2, 3))
    caution = desk.issue(2, "1.4")
    rulings.acknowledge_penalty(record=caution, judge=desk.floor)
    record = desk.issue(0, "6.1")
    rulings.add_statement(
        record=record,
        judge=desk.floor,
        role="opponent",
        author_name=members[1][0],
        text="Видел крапленую карту.",
        client_key=uuid.uuid4(),
    )
    if suspend:
        services.amend_penalty(
            record=record, to_rank=Rank.SUSPENSION, author=desk.head, reason="крапленые карты"
        )
    desk.win(2)
    desk.win(2)
    desk.tournament = tournament_services.finish_tournament(tournament=desk.tournament)
    return desk
