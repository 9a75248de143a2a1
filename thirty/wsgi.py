"""WSGI entry point for production servers (gunicorn)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")

application = get_wsgi_application()
