# Two commands set everything up on a fresh machine: `make demo` and `make test`.
VENV   ?= .venv
PY     := $(VENV)/bin/python
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO_NOW ?= 2026-11-29T12:00:00Z

.PHONY: install demo test check bench calibrate fault-long clean

$(PY):
	python3 -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The whole pass on a temporary copy of the bundled demo; the fixtures are never touched.
demo: install
	@set -e; tmp=$$(mktemp -d); \
	$(PY) fixtures/build_demo_repo.py $$tmp/repo >/dev/null; \
	cp -R fixtures/demo-memory $$tmp/memory; \
	echo "== demo memory copied to $$tmp/memory; demo repo built in $$tmp/repo"; \
	XDG_STATE_HOME=$$tmp/state $(BIN)/prune-memory run $$tmp/memory --repo $$tmp/repo \
	    --yes --now $(DEMO_NOW); \
	echo; echo "== prune-memory scan (after the run)"; \
	XDG_STATE_HOME=$$tmp/state $(BIN)/prune-memory scan $$tmp/memory || true; \
	echo; echo "== a person accepts one suggestion from the review, then undoes that pass"; \
	cp -R $$tmp/memory $$tmp/before; \
	XDG_STATE_HOME=$$tmp/state $(BIN)/prune-memory withdraw project_upload_outage.md \
	    --memory-dir $$tmp/memory --rule 6-completed-work --now $(DEMO_NOW) \
	    --reason "the outage is over (accepted from the review)"; \
	XDG_STATE_HOME=$$tmp/state $(BIN)/prune-memory restore --pass last \
	    --memory-dir $$tmp/memory --now $(DEMO_NOW); \
	diff -r $$tmp/before $$tmp/memory; \
	echo "every file is byte-identical to before the withdrawal; the run stays applied"; \
	echo; echo "== pruning-log.md"; cat $$tmp/memory/pruning-log.md; \
	echo; echo "== the run undone too: every byte of the demo memory back"; \
	XDG_STATE_HOME=$$tmp/state $(BIN)/prune-memory restore --pass last \
	    --memory-dir $$tmp/memory --now $(DEMO_NOW); \
	diff -r fixtures/demo-memory $$tmp/memory; \
	echo "the memory directory is byte-identical to fixtures/demo-memory"

# The suite — unit tests plus the short fault-injection, fuzzing and security runs — on two
# workers, under the 90% coverage gate CI applies.
test: install
	$(PY) -m pytest -n 2 --dist worksteal --cov=prune_memory --cov-report=term \
	    --cov-fail-under=90

check: install
	$(BIN)/ruff check prune_memory tests bench fixtures
	$(BIN)/mypy

bench: install
	CORPUS=$(CORPUS) $(PY) bench/run_all.py

# The judgment measured on the labelled real-world folders (a benchmark, not part of `make
# test`): ../shared/corpus (nine folders) and the project's own bench/corpus (30 more, its
# labels and origins only: setup.sh rebuilds the folders from the repository snapshots
# under MIRROR). Scores the plans of both and writes references/judgment.md; fails when the
# targets of ../shared/corpus/score.py are not met on either. Then the round trip
# (bench/roundtrip.py): every real memory withdrawn and brought back, byte for byte, and
# what a person accepting every review default would do (bench/review_defaults.py).
# CTXLINT=<path to the ctxlint binary> puts the peer tool's figures beside ours.
CORPUS_SRC  ?= ../shared/corpus
CORPUS      ?= /tmp/corpus
MORE_SRC    ?= bench/corpus
MORE        ?= /tmp/corpus-more
calibrate: install
	@test -n "$(MIRROR)" || { echo "make calibrate: set MIRROR to the folder holding the" \
	    "repository snapshots named in $(CORPUS_SRC)/*/ORIGIN and $(MORE_SRC)/*/ORIGIN" >&2; \
	    exit 2; }
	MIRROR=$(MIRROR) bash $(CORPUS_SRC)/setup.sh $(CORPUS) >/dev/null
	MIRROR=$(MIRROR) bash $(MORE_SRC)/setup.sh $(MORE) >/dev/null
	$(PY) bench/calibrate.py $(abspath $(BIN))/prune-memory $(CORPUS) \
	    $(CORPUS_SRC)/labels.json $(MORE) $(MORE_SRC)/labels.json \
	    $(if $(CTXLINT),--ctxlint $(CTXLINT)) --out references/judgment.md >/dev/null
	@# The last line of each. The round trip and the accept-all measure run whatever the
	@# scores say; the target's status is every step's, not tail's.
	@fail=0; \
	    out=$$(python3 $(CORPUS_SRC)/score.py $(abspath $(BIN))/prune-memory $(CORPUS)) || fail=1; \
	    echo "shared corpus: $$(echo "$$out" | tail -1)"; \
	    out=$$(python3 $(CORPUS_SRC)/score.py $(abspath $(BIN))/prune-memory $(MORE) \
	    $(abspath $(MORE_SRC))/labels.json) || fail=1; \
	    echo "project corpus: $$(echo "$$out" | tail -1)"; \
	    out=$$(CORPUS=$(CORPUS) $(PY) bench/roundtrip.py) || fail=1; echo "$$out" | tail -1; \
	    $(PY) bench/review_defaults.py $(CORPUS) $(CORPUS_SRC)/labels.json | tail -1; \
	    $(PY) bench/review_defaults.py $(MORE) $(MORE_SRC)/labels.json | tail -1; \
	    exit $$fail

# The long proof runs: 55+ SIGKILLs of a real run --yes, ENOSPC/EACCES at every write step,
# 1,500 fuzzed directories, files just under the size cap (about 15 minutes on two cores).
fault-long: install
	$(PY) -m pytest -m long -p no:cacheprovider --durations=10

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis dist build
