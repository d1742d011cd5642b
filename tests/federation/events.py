"""A finished event with a suspension, built through the services: used in the tests' own
database and, as a script, in the separate databases of the round trip."""

import uuid

from judging import services
from judging.penalties import Rank
from judging.services import rulings
from players.services import create_player
from tests.factories import Desk
from tournaments import services as tournament_services
from tournaments.models import FirstPlayer, Level, Match, PlayoffSeed


def finished_event(
    *, slug: str, name: str, members: list[tuple[str, str]], suspend: bool, playoff: bool = False
) -> Desk:
    """Four players (name, membership id); round 1: player 0 disqualified with a statement (and
    suspended, if ``suspend``), player 2 beats player 3 and acknowledges a caution; with
    ``playoff``, a top 2 follows (its first seed wins the final 2–1); finished."""
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
    if playoff:
        tournament_services.set_playoff(
            tournament=desk.tournament, size="2", best_of=3, final_best_of=3
        )
        final = tournament_services.publish_cut(tournament=desk.tournament)
        match = final.matches.get()
        tournament_services.enter_result(match=match, player1_wins=2, player2_wins=1)
    desk.tournament = tournament_services.finish_tournament(tournament=desk.tournament)
    return desk


def playoff_event(*, slug: str = "regional") -> Desk:
    """Eight players, one Swiss round (players 0, 2, 4 and 6 win 2–0), then a top 4: seed 1
    beats seed 4 2–0; seeds 2 and 3 are level at 1–1 when time is called and seed 3 is named the
    winner («дополнительная партия»); seed 3 beats seed 1 2–1 in the final; finished."""
    desk = Desk.create(players=8, slug=slug, level=Level.PROFESSIONAL)
    desk.pair((0, 1), (2, 3), (4, 5), (6, 7))
    for match in Match.objects.filter(round__tournament=desk.tournament):
        tournament_services.enter_result(match=match, player1_wins=2, player2_wins=0)
    tournament_services.set_playoff(
        tournament=desk.tournament,
        size="4",
        best_of=3,
        final_best_of=3,
        first_player=FirstPlayer.HIGHER_SEED_STARTS,
    )
    semis = tournament_services.publish_cut(tournament=desk.tournament)
    seeds = {
        seed.seed: seed.registration
        for seed in PlayoffSeed.objects.filter(tournament=desk.tournament).select_related(
            "registration"
        )
    }
    first, second = semis.matches.order_by("table")
    tournament_services.enter_result(match=first, player1_wins=2, player2_wins=0)
    tournament_services.enter_result(
        match=second,
        player1_wins=1,
        player2_wins=1,
        winner=seeds[3],
        decided_how="дополнительная партия",
    )
    final = tournament_services.publish_next_round(tournament=desk.tournament)
    tournament_services.enter_result(match=final.matches.get(), player1_wins=1, player2_wins=2)
    desk.tournament = tournament_services.finish_tournament(tournament=desk.tournament)
    return desk
