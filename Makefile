# The README's two commands: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The browser tests drive Debian's chromium (Playwright's own browser download is not used).
CHROMIUM := /usr/bin/chromium
# The production stack's test (tests/deploy/) runs Debian's nginx in front of two Daphnes.
NGINX := /usr/sbin/nginx

.PHONY: run test lint typecheck check bench vendor clean

run: $(VENV)/.installed-runtime
	$(BIN)/python -m boomsite.run

# Two workers (pytest-xdist), each with its own database, Redis databases and var/
# folder (tests/embedded_env.py); a module that starts processes stays on one worker
# (tests/conftest.py). The 25 slowest tests are printed at the end.
TEST_WORKERS ?= 2
test: $(VENV)/.installed-dev $(CHROMIUM) $(NGINX)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=25 $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy .

# What CI runs besides the tests (see .ci/run).
check: lint typecheck
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/lint-imports  # the layering contracts in pyproject.toml

bench: $(VENV)/.installed-dev
	$(BIN)/python -m bench.engine

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Boomsite needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall only when a requirements file changed, so a second run is fast.
$(VENV)/.installed-runtime: requirements.txt $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt $(VENV)/.installed-runtime
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "Install chromium (Debian's package) for the browser tests"; exit 1; }
	$$([ "$$(id -u)" -eq 0 ] || echo sudo) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'

$(NGINX):
	@command -v apt-get >/dev/null || { echo "Install nginx (Debian's package) for the deploy tests"; exit 1; }
	$$([ "$$(id -u)" -eq 0 ] || echo sudo) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx'

vendor:
	cd $$(mktemp -d) && npm pack --silent htmx.org@2.0.8 && tar xzf htmx.org-2.0.8.tgz \
	  && cp package/dist/htmx.min.js package/LICENSE $(CURDIR)/static/vendor/htmx/

clean:
	rm -rf $(VENV) var/static var/test
