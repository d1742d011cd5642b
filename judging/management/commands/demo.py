from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from judging.demo import DEMO_PASSWORD, DEMO_USERS, load_demo


class Command(BaseCommand):
    help = (
        "Prepare the embedded database with a demo tournament and demo logins, print them, and "
        "serve the app through the ASGI server (uvicorn)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-serve", action="store_true", help="Only prepare the data.")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(
        self, *args: object, no_serve: bool, host: str, port: int, **options: object
    ) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        tournament = load_demo()
        url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
        self.stdout.write(f"Demo tournament: {tournament.name}")
        self.stdout.write(f"Open {url} and sign in with one of (password {DEMO_PASSWORD}):")
        for username, (full_name, _role) in DEMO_USERS.items():
            self.stdout.write(f"  {username:<10} {full_name}")
        if no_serve:
            return
        # Compressed, fingerprinted copies of the assets, which browsers may keep for a year.
        call_command("collectstatic", interactive=False, verbosity=0)
        import uvicorn

        uvicorn.run("config.asgi:application", host=host, port=port, log_level="info")
