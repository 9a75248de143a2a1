# The two set-up commands are `make run` and `make test`; everything else is for developers.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export DJANGO_SETTINGS_MODULE := thirty.settings

.PHONY: run serve test test-fast lint format typecheck bench messages screenshots clean

$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

data:
	mkdir -p data

run: venv data ## Migrate SQLite and serve the app on http://127.0.0.1:$(PORT)
	if [ -d locale ] && command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore=.venv -v 0; fi
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

serve: venv data ## The production server, as the Docker image runs it
	DEBUG=$${DEBUG:-false} PORT=$(PORT) $(BIN)/python -m thirty.serve

test: venv ## The whole suite: installs Chromium and PostgreSQL first when run as root with apt
	bash scripts/test.sh

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: venv
	bash scripts/bench.sh

clean:
	rm -rf $(VENV) static-collected
