"""WSGI entry point for the production server (granian, see thirty/serve.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")

application = get_wsgi_application()
