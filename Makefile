# The room's two set-up commands: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The server's WebSocket message limit, above the room's own (tables/realtime/protocol.py
# SERVER_MAX_MESSAGE_BYTES): a too long frame is answered `too_large`, not cut by Daphne.
DAPHNE_SIZE_ARGS := --websocket-max-message-size 4194304 --websocket-max-frame-size 4194304
# The services shape's processes write their Prometheus metrics here, and /metrics adds them
# up (docs/operations.md "Health and metrics"); emptied by run-services before they start.
PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/var/prometheus

.PHONY: venv run test lint lint-js format typecheck run-services worker beat benchmark screenshots

$(BIN)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(BIN)/.installed

## make run: the room on the embedded default (SQLite, in-process channel layer and tasks).
run: venv
	@mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py load_demo_tournament
	@echo "The room is at http://$(HOST):$(PORT)/  (Ctrl-C stops it; bots log to var/bots.log and var/tournament-bots.log)"
	@trap 'kill 0' INT TERM; \
	  $(PY) manage.py seat_demo_bots --count 2 --url http://$(HOST):$(PORT) \
	    --table $$($(PY) manage.py load_demo --practice-table-id) > var/bots.log 2>&1 & \
	  $(PY) manage.py seat_demo_bots --count 2 --url http://$(HOST):$(PORT) --prefix razzbot \
	    --table $$($(PY) manage.py load_demo --razz-table-id) > var/razz-bots.log 2>&1 & \
	  $(PY) manage.py seat_demo_bots --count 2 --url http://$(HOST):$(PORT) --prefix triplebot \
	    --table $$($(PY) manage.py load_demo --triple-stud-table-id) > var/triple-bots.log 2>&1 & \
	  $(PY) manage.py tournament_bots --demo --url http://$(HOST):$(PORT) \
	    > var/tournament-bots.log 2>&1 & \
	  $(BIN)/daphne -b $(HOST) -p $(PORT) $(DAPHNE_SIZE_ARGS) pokerroom.asgi:application

## make test: ruff, ESLint, the import contracts, mypy on every app (stud strict), and the whole pytest suite.
test: venv lint typecheck
	@mkdir -p var
	$(PY) -m pytest $(PYTEST_ARGS); status=$$?; \
	  if [ $$status -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; exit 1; fi; \
	  exit $$status

lint: venv lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

## ESLint on static/js and tests/js (eslint.config.js), stylelint on static/css
## (.stylelintrc.json: stylelint-config-standard), and TypeScript's check of the `// @ts-check`
## modules against the frames' generated types (tsconfig.json); package.json pins all three.
## Installs them into
## node_modules/ with `npm ci` on first use; skipped with a notice only where Node is absent.
lint-js:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
	  echo "NOTICE: Node.js/npm not found: the JavaScript and CSS lint (ESLint, stylelint) is skipped"; \
	else \
	  test -x node_modules/.bin/eslint -a -x node_modules/.bin/stylelint -a -x node_modules/.bin/tsc \
	    || npm ci --no-audit --no-fund --loglevel=error; \
	  node_modules/.bin/eslint static/js tests/js && \
	    node_modules/.bin/stylelint "static/css/**/*.css" && \
	    node_modules/.bin/tsc --noEmit -p tsconfig.json; \
	fi

## make screenshots: the pictures of every page the browser checks look at, written as their
## baselines (tests/browser/baselines/) and as the README's docs/screenshots/, from the same
## states (tests/browser/test_pages_as_seen.py; docs/browser.md). Needs Chromium.
screenshots: venv
	@mkdir -p var
	POKERROOM_UPDATE_SCREENSHOTS=1 $(PY) -m pytest tests/browser/test_pages_as_seen.py -q

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: venv
	$(BIN)/mypy

## The services shape: Daphne + Celery worker + beat on PostgreSQL and Redis.
## Needs DATABASE_URL and REDIS_URL (see README.md); runs the three processes together under
## supervisord (supervisord.conf), which starts again any of them that exits, and restarts
## Daphne when it stops answering /healthz (the watchdog).
run-services: venv
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "set DATABASE_URL and REDIS_URL"; exit 2; }
	@mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py collectstatic --noinput -v 0
	rm -rf "$(PROMETHEUS_MULTIPROC_DIR)" && mkdir -p "$(PROMETHEUS_MULTIPROC_DIR)"
	HOST=$(HOST) PORT=$(PORT) PROMETHEUS_MULTIPROC_DIR="$(PROMETHEUS_MULTIPROC_DIR)" \
	  $(BIN)/supervisord -c supervisord.conf

worker: venv
	$(BIN)/celery -A pokerroom worker -l info --concurrency 2 --without-gossip --without-mingle

beat: venv
	$(BIN)/celery -A pokerroom beat -l info

benchmark: venv
	$(PY) benchmarks/engine.py
