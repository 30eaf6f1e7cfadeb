# gunbai — the two commands are `make demo` and `make test`; the rest are their steps.
.PHONY: all setup build build-js build-py demo test check bench

all: test

setup:
	bash scripts/setup.sh

build-js: setup
	bash scripts/build-js.sh

build-py: setup
	bash scripts/build-py.sh

build: build-js build-py

## The main job: the same operations with the same seeds from Node and Python, compared.
demo: build
	bash scripts/demo.sh

## Everything: cargo test, clippy -D warnings, rustfmt, Node tests + tsc, pytest + stubtest,
## both conformance runners over testdata/vectors, README examples.
test: build
	bash scripts/test.sh

## The checks alone, without setup or rebuilding.
check:
	bash scripts/test.sh

## Python benchmarks (batch vs a plain loop, exact odds vs icepool); figures in BENCHMARKS.md.
bench: build-py
	bash benchmarks/run.sh
