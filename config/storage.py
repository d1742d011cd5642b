"""Static files: compressed and named by their content once ``collectstatic`` has run."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed, fingerprinted storage, so that browsers keep every asset for a
    year and fetch it again only when it changes.

    Before ``collectstatic`` has run (the tests, a developer's checkout) a file has no
    fingerprinted copy yet: its plain name is used, and WhiteNoise serves it from the app folders
    with a short cache, instead of the page failing.
    """

    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:
            return name
