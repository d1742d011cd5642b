"""Which stage of the tournament a round belongs to: the Swiss rounds, or the playoff.

Every round is an ordinary round in the event file and in the API, with a ``stage``. Until the
desk has a playoff every round is Swiss; the playoff's work answers "playoff" here for its rounds
(one place to change: the event file, its ``playoff`` block and the API's bracket follow).
"""

from tournaments.models import Round

SWISS = "swiss"
PLAYOFF = "playoff"
STAGES = (SWISS, PLAYOFF)


def stage_of(round_: Round) -> str:
    """The stage of ``round_``: "playoff" for a round marked a playoff round (the playoff's work
    marks it with a boolean ``Round.playoff``; a ``stage`` field would be read as well), else
    "swiss". Read through ``getattr`` so that this app runs before and after that field lands."""
    if getattr(round_, "playoff", False) is True:
        return PLAYOFF
    stage = getattr(round_, "stage", SWISS)
    return stage if stage in STAGES else SWISS
