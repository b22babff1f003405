# Two commands set everything up on a fresh machine:
#   make demo   — a whole simulated night on bundled sample transcripts (no key, no network)
#   make test   — lint, type-check and the full test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test demo lint typecheck pytest rewrite-cache bench wheel clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The type check runs beside `rewrite-cache` (mypy keeps one core busy, the other idles).
test: $(STAMP) lint
	$(MAKE) --no-print-directory -j2 typecheck rewrite-cache
	$(MAKE) --no-print-directory pytest

lint: $(STAMP)
	$(BIN)/ruff check sleepd harvesters migrations tests bench
	$(BIN)/ruff format --check sleepd harvesters migrations tests bench

typecheck: $(STAMP)
	$(BIN)/mypy sleepd harvesters

# The suite runs on every core (pytest-xdist; each worker has its own temp folders,
# homes and loopback ports), one test file per worker at a time, so a module's shared
# fixtures (the demo run per width of the render checks) are built once.
# `make pytest PYTEST_WORKERS=0` runs it in one process.
# The package is byte-compiled first: where PYTHONDONTWRITEBYTECODE is set (as on CI),
# every `sleepd` process a test starts would otherwise compile what it imports again.
PYTEST_WORKERS ?= auto
pytest: $(STAMP)
	$(BIN)/python -m compileall -q sleepd harvesters migrations
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile

# pytest rewrites each test module's asserts on import, in every xdist worker, and caches
# the result only where bytecode may be written (PYTHONDONTWRITEBYTECODE, as on CI, stops
# it). One collection with writing allowed fills that cache in tests/**/__pycache__, so the
# workers load it instead of rewriting every file each.
rewrite-cache: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest --collect-only -q -p no:xdist > /dev/null

demo: $(STAMP)
	$(BIN)/sleepd demo

bench: $(STAMP)
	for script in bench/*.py; do $(BIN)/python $$script || exit 1; done

wheel: $(STAMP)
	rm -rf dist && $(BIN)/python -m build --wheel --outdir dist .

clean:
	rm -rf $(VENV) dist build .mypy_cache .ruff_cache .pytest_cache
