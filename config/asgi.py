import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# WhiteNoise hands Django a synchronous file iterator, which Django's ASGI handler then reads in a
# thread and says so on every start. The app's assets are a few small files, so the warning tells
# the person running the demo nothing they need to act on.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
)

django_application = get_asgi_application()

# The players' pages already prepared are answered before Django's request handling, on the
# event loop, so that a phone never takes a thread from a judge (floor/front_door.py).
from floor.front_door import PlayersPagesFrontDoor  # noqa: E402  (needs the apps loaded)

application = PlayersPagesFrontDoor(django_application)
