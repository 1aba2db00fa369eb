"""Settings for the site processes a test starts (Daphne, Celery workers): the same
as the site's, pointed at the test database the test run created.

``BOOMSITE_TEST_DB_NAME`` is set by the ``site_env`` fixture (tests/conftest.py),
with ``HTTPS_ONLY=false`` since the tests speak plain HTTP to 127.0.0.1.
"""

import os

from boomsite.settings import *  # noqa: F403
from boomsite.settings import DATABASES, STORAGES

DATABASES["default"]["NAME"] = os.environ["BOOMSITE_TEST_DB_NAME"]
# Static files from the source folders, as the in-process tests do (tests/conftest.py):
# collectstatic is a deploy step, not part of a test.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
