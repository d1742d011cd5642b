"""Human-readable words for a record: its penalty with what it includes, and why it is so.

Records store the facts of an escalation as data (``PenaltyRecord.explanation``); the words are
made here, at display time, so they follow the reader's language.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from judging.penalties import Rank
from judging.stacking import Explanation


def penalty_label(rank: int) -> str:
    """«Поражение в партии (с предупреждением)»: the penalty and the one it always includes."""
    penalty = Rank(rank)
    included = penalty.includes
    if included is None:
        return str(penalty.label)
    return _("%(penalty)s (with %(included)s)") % {
        "penalty": penalty.label,
        "included": str(included.label).lower(),
    }


def explain(explanation: Explanation | None) -> str:
    """The reason a record is above its base penalty, or "" when it is not (no explanation)."""
    if not explanation:
        return ""
    if explanation["kind"] == "repeat":
        held_rank = Rank.from_key(explanation["held_rank"]).label
        if explanation["held_round"]:
            return _("repeat of %(reason)s (held: %(penalty)s, round %(round)s)") % {
                "reason": explanation["reason"],
                "penalty": held_rank,
                "round": explanation["held_round"],
            }
        return _("repeat of %(reason)s (held: %(penalty)s)") % {
            "reason": explanation["reason"],
            "penalty": held_rank,
        }
    parts = list(explanation["reasons"])
    from_stacking = explanation["from_stacking"]
    if from_stacking:
        parts.append(
            ngettext("%(count)d from stacking", "%(count)d from stacking", from_stacking)
            % {"count": from_stacking}
        )
    sources = (
        _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}
        if len(parts) > 1
        else "".join(parts)
    )
    return _("three «%(penalty)s» (%(sources)s) at the end of round %(round)s") % {
        "penalty": Rank.from_key(explanation["rank"]).label,
        "sources": sources,
        "round": explanation["round"],
    }


def takes_text(applies_to: str) -> str:
    """What a loss takes, in the words a judge says at the table."""
    return {
        "current_game": _("this game is lost"),
        "next_game": _("the next game is lost"),
        "current_match": _("this match is lost"),
        "next_match": _("the next match is lost"),
    }.get(applies_to, "")
