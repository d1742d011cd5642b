"""Loaded before Django starts: the tests' own settings that must exist before settings load."""

import os

# A production database requires a real key; the test suite is not production.
os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
