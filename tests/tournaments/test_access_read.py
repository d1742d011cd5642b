"""A staff page: Django signs the user in, ``staff_view`` reads their roles once and hands them to
the view.

Each case is one a shared tablet or a changed account meets at an event.
"""

import pytest
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import Desk, UserFactory
from tournaments.models import Staff


def home(desk):
    return reverse("judging:judge-home", args=[desk.tournament.slug])


def signs_in_again(response):
    return response.status_code == 302 and reverse("login") in response["Location"]


@pytest.fixture
def judge(client, desk):
    client.force_login(desk.floor)
    return client


def test_a_staff_page_reads_the_session_the_user_and_the_roles_once_each(judge, desk):
    with CaptureQueriesContext(connection) as queries:
        response = judge.get(home(desk))

    assert response.status_code == 200
    for table in ('"core_session"', '"auth_user"', '"tournaments_staff"'):
        assert len([query for query in queries if f"FROM {table}" in query["sql"]]) == 1, table


def test_a_password_changed_elsewhere_signs_the_tablet_out(judge, desk):
    desk.floor.set_password("a-new-password-2026")
    desk.floor.save()

    assert signs_in_again(judge.get(home(desk)))
    assert SESSION_KEY not in judge.session


def test_a_deactivated_judge_is_signed_out(judge, desk):
    desk.floor.is_active = False
    desk.floor.save()

    assert signs_in_again(judge.get(home(desk)))


def test_a_session_naming_an_account_that_is_gone_is_signed_out(judge, desk):
    # Accounts are kept (the records name them), but a session can outlive a restored backup.
    session = judge.session
    session[SESSION_KEY] = "987654"
    session.save()

    assert signs_in_again(judge.get(home(desk)))


def test_someone_off_the_staff_finds_nothing_and_stays_signed_in(client, desk):
    stranger = UserFactory()
    client.force_login(stranger)

    assert client.get(home(desk)).status_code == 404
    assert client.session[SESSION_KEY] == str(stranger.pk)
    assert client.get(reverse("judging:judge-home", args=["no-such-event"])).status_code == 404


def test_a_judge_of_another_tournament_finds_nothing_here(client, desk):
    other = Desk.create()
    client.force_login(other.floor)

    assert client.get(home(desk)).status_code == 404
    assert client.get(home(other)).status_code == 200


def test_a_role_taken_away_takes_the_page_with_it(judge, desk):
    assert judge.get(home(desk)).status_code == 200
    Staff.objects.filter(user=desk.floor, tournament=desk.tournament).delete()

    assert judge.get(home(desk)).status_code == 404


def test_an_organiser_without_a_judges_role_is_refused_with_the_reason(client, desk):
    client.force_login(desk.organiser)

    response = client.get(home(desk))

    assert response.status_code == 403
    assert "главный судья, судья" in response.content.decode()


def test_signed_out_goes_to_sign_in(client, desk):
    assert signs_in_again(client.get(home(desk)))


def test_the_sessions_data_decides_who_is_signed_in_not_its_rows_copy(judge, desk):
    # Were the row's copy of the user ever to disagree with the data, the data decides.
    from core.models import Session

    Session.objects.filter(session_key=judge.session.session_key).update(user=desk.organiser)

    response = judge.get(home(desk))

    # The organiser alone would be refused this judges' page.
    assert response.status_code == 200
    assert response.wsgi_request.user == desk.floor
