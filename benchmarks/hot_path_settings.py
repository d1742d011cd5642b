"""The app's settings with the benchmark's URLs (the app's, plus a hello-world view)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.hot_path_urls"
