"""WSGI entry point, for management tools that expect one; the site itself runs on ASGI."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boomsite.settings")
application = get_wsgi_application()
