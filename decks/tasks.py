"""Background work of the decks app (django.tasks): re-checking a tournament's lists."""

from django.tasks import task

from decks import services


@task
def recheck_tournament_lists(run_id: int) -> int:
    """Read and check again every list of the run's tournament; returns the lists checked."""
    return services.run_recheck(run_id=run_id)
