"""Whether this machine lets a thread take Linux's idle scheduling policy (``core.idle``)."""

import os
import sys
import threading


def threads_may_idle() -> bool:
    """A container may refuse the call; ``core.idle`` then leaves the thread at the process's
    priority, and the tests that look for the policy have nothing to look for."""
    if sys.platform != "linux":
        return False
    allowed: list[bool] = []

    def probe() -> None:
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            allowed.append(False)
        else:
            allowed.append(True)

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return allowed[0]
