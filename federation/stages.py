"""Which stage of the tournament a round belongs to: the Swiss rounds, or the playoff.

Every round is an ordinary round in the event file and in the API, with a ``stage``: "playoff"
for a round the playoff's work published (``Round.playoff``), else "swiss". The event file, its
``playoff`` block and the API's bracket all ask this one function.
"""

from tournaments.models import Round

SWISS = "swiss"
PLAYOFF = "playoff"
STAGES = (SWISS, PLAYOFF)


def stage_of(round_: Round) -> str:
    """The stage of ``round_``."""
    return PLAYOFF if round_.playoff else SWISS
