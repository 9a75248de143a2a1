# The two set-up commands are `make run` and `make test`; everything else is for developers.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export DJANGO_SETTINGS_MODULE := thirty.settings
# Python may cache compiled modules (in __pycache__, ignored by git): where the environment
# forbids it, every test process compiled the project and pytest rewrote and compiled each test
# module and plugin again, about 5 s of each worker's start (3 s with the cache, 8 s without).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run dev serve messages-compiled test test-fast lint format typecheck bench messages screenshots clean

# uv installs the pinned packages (constraints.txt) in parallel: 5 s on a fresh machine, where
# pip took 27 s and more. Python compiles each module the first time it is imported. uv itself
# is put in by the pip beside $(PYTHON) (`--python`), which saves putting pip into the
# environment first (4 s); where $(PYTHON) has no pip, the environment gets its own.
$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check \
		-c constraints.txt uv 2>/dev/null \
		|| { $(BIN)/python -m ensurepip --default-pip >/dev/null \
		&& $(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt uv; }
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

data:
	mkdir -p data

messages-compiled:
	if [ -d locale ] && command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore=.venv -v 0; fi

run: venv data messages-compiled ## Serve the app to phones on this network, as people use it
	HOST=0.0.0.0 PORT=$(PORT) DEBUG=false $(BIN)/python -m thirty.serve

dev: venv data messages-compiled ## Django's own server with autoreload and debug pages, this machine only
	$(BIN)/python manage.py migrate --noinput
	DEBUG=true $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

serve: venv data ## The production server, as the Docker image runs it (HOST picks the interface)
	DEBUG=$${DEBUG:-false} PORT=$(PORT) $(BIN)/python -m thirty.serve

test: venv ## The whole suite: installs Chromium and PostgreSQL first when run as root with apt
	bash scripts/test.sh

# Without a browser, Playwright's plugin is not loaded: 0.4 s less in each of the three processes.
test-fast: venv messages-compiled ## SQLite, no browser, a tenth of the random examples: about a minute
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/pytest -q -rs -n $${THIRTY_WORKERS:-auto} --dist worksteal \
		--ignore=tests/browser --hypothesis-profile=dev -p no:playwright -p no:base_url

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: venv
	bash scripts/bench.sh

messages: venv ## Refresh the Danish catalogue from the code, then compile it (words: docs/glossary.md)
	$(BIN)/python manage.py makemessages -l da --no-obsolete --ignore=.venv --ignore=tests \
		--ignore=docs --ignore=bench --ignore=scripts --ignore=static-collected --ignore=data
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) static-collected
