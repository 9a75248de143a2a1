"""Django's own ASGI handler for every request: a candidate of bench/servers.py only."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")

application = get_asgi_application()
