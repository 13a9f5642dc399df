# Everyday commands. `make run` and `make test` set everything up on a fresh machine
# that has Python 3.12+: uv is installed into .tools/, the locked dependencies into .venv/.

SHELL := /bin/bash
.DEFAULT_GOAL := help

UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
STAMP := .venv/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# uv must never download an interpreter (it can't here): it uses the local Python.
export UV_PYTHON_DOWNLOADS := never
export UV_NO_PROGRESS := 1
RUN := $(UV) run --frozen --no-sync

# Run `make check` before a commit: CI runs exactly that.
.PHONY: help install run test check lint stack migrate messages superuser clean bench-tables screenshots

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(UV):
	@python="$$(scripts/find-python)" && echo "Bootstrapping uv $(UV_VERSION) with $$python" \
	  && "$$python" -m venv $(TOOLS) \
	  && $(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

$(STAMP): $(UV) pyproject.toml uv.lock
	UV_PYTHON="$$(scripts/find-python)" $(UV) sync --frozen
	@touch $(STAMP)

install: $(STAMP) ## Create .venv and install the locked dependencies

run: install ## Serve on http://127.0.0.1:8000 with the embedded default (SQLite, no Redis)
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL DJANGO_DEBUG=$${DJANGO_DEBUG:-true} \
	  $(RUN) python manage.py migrate --noinput
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL DJANGO_DEBUG=$${DJANGO_DEBUG:-true} \
	  $(RUN) uvicorn config.asgi:application --host $(HOST) --port $(PORT) --no-proxy-headers --reload \
	    --reload-dir config --reload-dir core --reload-dir accounts --reload-dir games --reload-dir tournaments \
	    --reload-dir ratings --reload-dir analysis --reload-dir social --reload-dir clubs \
	    --reload-dir fairplay --reload-dir templates --reload-include '*.html'

# The suite runs in TEST_WORKERS processes (pytest-xdist), each on databases of its own
# (tests/services.py): most of its time is spent waiting on servers, workers and clocks, so
# more processes than cores pay. The slow tests go first and xdist hands out one test at a
# time (--maxschedchunk 1), so none of them is left for the end. TEST_WORKERS=0 runs it in
# this one process.
TEST_WORKERS ?= 4

test: install ## Run the whole test suite (set CI=true to make missing services a failure)
	$(RUN) pytest -n $(TEST_WORKERS) --maxschedchunk 1 $(COVERAGE_ARGS) $(PYTEST_ARGS)

# `make check` measures coverage too (statements and branches, pyproject.toml's
# [tool.coverage.*]) and prints it per app; under the floor the run fails.
check: lint ## What CI runs: formatting, lint, types, migrations, layer contracts, the tests with coverage
	$(RUN) python manage.py makemigrations --check --dry-run
	$(MAKE) test COVERAGE_ARGS="--cov --cov-report="
	$(RUN) python scripts/coverage_summary.py

# The pure-Python packages held to mypy --strict (those that exist).
STRICT := $(wildcard games/engine games/bots analysis/core.py fairplay/screen.py fairplay/scoring.py)

lint: install ## ruff format --check, ruff, mypy (strict for engine and bots), import-linter's layer contracts, the map of package imports
	$(RUN) ruff format --check .
	$(RUN) ruff check .
	$(RUN) mypy config core accounts games tournaments ratings analysis social clubs fairplay
	$(if $(STRICT),$(RUN) mypy --strict $(STRICT))
	$(RUN) lint-imports --no-cache
	$(RUN) python scripts/import_map.py

stack: install ## web, Celery worker pools and beat on local PostgreSQL and Redis (WEB=3: three servers)
	$(RUN) scripts/stack $(if $(WEB),--web $(WEB))

bench-tables: install ## Live-table benchmarks on local PostgreSQL and Redis (docs/benchmarks.md)
	$(RUN) python -m bench.table_actions $(BENCH_ACTIONS_ARGS)
	$(RUN) python -m bench.table_load $(BENCH_LOAD_ARGS)

migrate: install ## Apply migrations to the database the environment names
	$(RUN) python manage.py migrate --noinput

# Apps with a catalogue of their own (<app>/locale/); locale/ holds the rest.
APP_CATALOGUES := $(patsubst %/locale,%,$(wildcard */locale))
MAKEMESSAGES := makemessages --locale ru --locale uk --no-obsolete --no-location

messages: install ## Refresh every catalogue (locale/ and <app>/locale/) and compile them
	$(RUN) python manage.py $(MAKEMESSAGES) --ignore '.venv/*' \
	  --ignore '.tools/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'bench/*' \
	  $(foreach app,$(APP_CATALOGUES),--ignore '$(app)/*')
	$(foreach app,$(APP_CATALOGUES),cd $(app) && $(CURDIR)/.venv/bin/django-admin \
	  $(MAKEMESSAGES) --settings=config.settings --pythonpath=.. && cd $(CURDIR) &&) true
	$(RUN) python manage.py compilemessages --ignore '.venv/*' --ignore '.tools/*'

screenshots: install ## PNGs of the lobby, a table, the score sheet and a replay in docs/screenshots/
	$(RUN) python scripts/screenshots.py

superuser: install ## Create an admin account
	$(RUN) python manage.py createsuperuser

clean: ## Remove .venv, .tools and caches (keeps db.sqlite3)
	rm -rf .venv $(TOOLS) .pytest_cache .mypy_cache .ruff_cache .hypothesis
