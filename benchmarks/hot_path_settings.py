"""The app's settings with the benchmark's URLs (the app's, plus a hello-world view)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.hot_path_urls"

# Every client of a benchmark is 127.0.0.1: the per-client limits of the players' pages
# (core/throttle.py) would measure themselves, not the server.
DESK_THROTTLES = {"players": (10**9, 60), "codes": (10**9, 60)}
