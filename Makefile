# Parlour — every target sets itself up: a fresh machine needs only Python >= 3.11 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Python caches compiled modules in __pycache__ unless told not to; some machines set
# PYTHONDONTWRITEBYTECODE=1, and then every process the tests start (servers, workers,
# CLIs: hundreds) compiles the project again, about 0.3 CPU-seconds each.
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := help
.PHONY: help demo test checks docscheck pytest bench lint serve clean browser sandbox docs openapi

help: ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  make %-8s %s\n", $$1, $$2}'

# uv installs the same packages as pip, from the same registry, in a fifth of the time
# (parallel downloads, no compiling of every module up front); pip stays the fallback.
# The venv starts without pip (ensurepip compiles all of pip: 6 s); the system's pip puts
# uv in it (pip >= 22.3 installs for another interpreter, --python), and uv then installs
# pip with the rest (the tests download wheels with it). Without such a pip, ensurepip.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install --quiet uv 2>/dev/null \
	  || { $(BIN)/python -m ensurepip --default-pip >/dev/null && $(BIN)/python -m pip install --quiet uv; }
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]' \
	  || { echo "uv could not install; pip will"; $(BIN)/python -m ensurepip --default-pip >/dev/null; \
	       $(BIN)/python -m pip install --quiet -e '.[dev]'; }
	touch $(STAMP)

demo: $(STAMP) sandbox ## the main job: parlour serve + eight bots + a Concerto tournament, end to end
	$(BIN)/parlour demo

# The static checks run beside pytest (make -j2): pytest's workers spend much of their time
# waiting (servers starting, browsers, installs), which the checks fill. Either failing
# fails `make test`; make waits for the other to finish first.
# -n auto: a worker per core and one more (tests/conftest.py), for the same waits.
PYTEST_ARGS ?= -n auto --dist loadfile --durations=30

test: $(STAMP) browser sandbox ## run the whole test suite (real Redis, real sockets, real Chromium)
	@$(MAKE) --no-print-directory -j2 checks pytest

checks: lint ## lint, then the docs build (mkdocs --strict: a warning fails it)
	@$(MAKE) --no-print-directory docscheck

# mkdocs --quiet hides warnings from --strict as well as from the screen (a warning then
# fails nothing), so the build runs loud and only what is not INFO is shown, on failure.
MKDOCS_CONFIG ?= mkdocs.yml
docscheck: $(STAMP) ## the docs build, strict: any warning fails it (MKDOCS_CONFIG: mkdocs.yml)
	@out=$$(NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --config-file $(MKDOCS_CONFIG) 2>&1) \
	  || { echo "$$out" | grep -v '^INFO'; echo "docscheck: the docs build failed"; exit 1; }

pytest: $(STAMP) ## pytest alone (PYTEST_ARGS: -n auto --dist loadfile, the 30 slowest listed)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

browser: ## install Debian's chromium (and its headless shell) for tests/web where we may (root + apt-get); never fails
	@if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "browser: installing Debian's chromium, chromium-headless-shell and chromium-driver for tests/web"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver >/dev/null) \
	    || echo "browser: apt-get could not install chromium; tests/web will skip"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null \
	    || echo "browser: no chromium-headless-shell; tests/web use chromium (about twice the CPU)"; \
	elif command -v chromium >/dev/null 2>&1; then :; \
	else echo "browser: no chromium, and not root with apt-get; tests/web will skip"; fi

# Hosted bots run in bubblewrap (docs/sandbox.md); tests/sandbox runs real sandboxes and,
# as root with apt-get, fails rather than skips without it. Another apt-get may hold the
# dpkg lock (browser, just before): wait for it rather than fail.
sandbox: ## install Debian's bubblewrap for hosted bots and tests/sandbox where we may (root + apt-get); never fails
	@if command -v bwrap >/dev/null 2>&1; then echo "sandbox: $$(bwrap --version) is installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "sandbox: installing Debian's bubblewrap for hosted bots and tests/sandbox"; \
	  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq bubblewrap >/dev/null 2>&1 \
	    || { apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null 2>&1 \
	         && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq bubblewrap >/dev/null; } \
	    || echo "sandbox: apt-get could not install bubblewrap; tests/sandbox will fail, hosted bots cannot run"; \
	else echo "sandbox: no bubblewrap, and not root with apt-get; tests/sandbox will skip, hosted bots cannot run"; fi

bench: $(STAMP) ## measure speed; figures print as `name: value unit`
	$(BIN)/python -m tests.bench

lint: $(STAMP) ## ruff (check + format), mypy, the layer contracts
	$(BIN)/ruff check server client_sdk bots tests
	$(BIN)/ruff format --check server client_sdk bots tests
	$(BIN)/mypy
	$(BIN)/lint-imports

docs: $(STAMP) ## build the documentation into site/ (MkDocs, offline)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

openapi: $(STAMP) ## regenerate openapi.yaml from server/api, then the Python SDK's and the TypeScript client's types from it
	$(BIN)/python -m server.api.openapi
	$(BIN)/python -m client_sdk.typegen
	cd client_sdk/typescript && npm ci --ignore-scripts --silent && npm run --silent generate

serve: $(STAMP) sandbox ## run the server on 127.0.0.1:8000 with an embedded Redis (and bubblewrap for hosted bots, where it may)
	$(BIN)/parlour serve

clean: ## remove the virtualenv and local data
	rm -rf $(VENV) var site .pytest_cache .ruff_cache .hypothesis
