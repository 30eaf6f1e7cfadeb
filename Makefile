# gunbai — the two commands are `make demo` and `make test`; the rest are their steps.
# Every target is a script in scripts/ that can also be run on its own.
.PHONY: all setup setup-js setup-py build build-js build-py develop demo test check quick check-core dist smoke bench

all: test

## Everything make test needs (tools cached under ~/.cache/gunbai; docs/toolchain.md).
setup:
	bash scripts/setup.sh

## What the npm package needs: the wasm toolchain, wasm-bindgen-cli, wasm-opt (no Python).
setup-js:
	bash scripts/setup.sh rust wasm bindgen node

## What the wheel needs: rustup and Python (maturin in .venv; no wasm, Node or browser).
setup-py:
	bash scripts/setup.sh rust py

## The npm package in bindings-js/pkg: the full entry, the per-ruleset entries, the inline variants.
build-js: setup-js
	bash scripts/build-js.sh

## The sdist and, built from it by pip, the wheel in bindings-py/dist (release, abi3), installed into .venv.
build-py: setup-py
	bash scripts/build-py.sh

build: build-js build-py

## The Python inner loop: a debug build of the extension installed into .venv in place
## (Python edits apply at once; after a Rust edit, run it again). make build-py (or make
## test) puts the release wheel back.
develop: setup-py
	bash scripts/xtask.sh py bindings-py/python/gunbai
	mkdir -p bindings-py/python/gunbai/data && cp core/data/command/coc7_tables.json bindings-py/python/gunbai/data/
	cd bindings-py && VIRTUAL_ENV="$(CURDIR)/.venv" ../.venv/bin/maturin develop
	rm -f .venv/.gunbai-wheel

## The main job: the same operations with the same seeds from Node and Python, compared.
## Builds only what it runs (the full npm entry and the wheel), prints each step's time.
demo:
	bash scripts/demo.sh

## Everything: every check in scripts/ci/ (cargo test, the property runs, clippy, rustfmt,
## cargo doc, Node and Python tests, stubs, both conformance runners, the docs' examples,
## browser tests, notebooks, the bot, the fuzz run, make dist and the smoke tests), each
## with the setup and builds it needs, side by side. CHECKS="pytest stubs" runs only those.
## The property runs play 25 battles and 50 games per engine; GUNBAI_LONG=1 make test (or
## GUNBAI_LONG=1 bash scripts/ci/property.sh) plays the long counts, 350 and 300.
test:
	bash scripts/test.sh $(CHECKS)

## After an edit: the Rust-side checks (cargo test, clippy, rustfmt, cargo doc, the generated
## surface), incremental, without the wasm and wheel builds.
check:
	GUNBAI_TEST_BUILD=debug bash scripts/test.sh test-core clippy fmt doc generated

## The inner loop on one ruleset: its unit tests and its vector files, debug build.
## R=tmd (also world_trigger, coc, coc7, coc_ap, coc7_house, fap_map, command, dice).
quick:
	R="$(R)" bash scripts/quick.sh

## The core's cargo test, fast: vectors one test per file, no long property runs.
## ONLY=tmd::encounter runs the tests whose name contains it; LONG=1 adds the property runs.
check-core:
	ONLY="$(ONLY)" LONG="$(LONG)" bash scripts/check-core.sh

## dist/: the sdist, the abi3 wheel and the npm tarball.
dist: build
	bash scripts/dist.sh

## Install each artifact of dist/ outside the repository and run the README examples on it.
smoke: dist
	bash scripts/smoke.sh

## Benchmarks from Node and Python (benchmarks/run.sh); figures in BENCHMARKS.md.
bench: build-js build-py
	bash benchmarks/run.sh
