#!/usr/bin/env bash
# `make test`: every check in scripts/ci/, from setup to the installed-artifact smoke tests.
# Each check is one script, runnable alone (`bash scripts/ci/pytest.sh`), that names what it
# uses on its `needs` line (scripts/ci/lib.sh). This runner reads those lines, installs and
# builds each thing once (the setup parts, xtask, the npm package, the wheel, dist/), and
# starts every check as soon as what it needs is there: at most $GUNBAI_JOBS jobs at once
# besides setup (default 5, on two cores: the wasm and release builds are mostly one core).
# A job's output is printed whole when it ends, with its time; a failed job's dependents
# are skipped, the rest still run, and the run fails. Logs: target/logs/test/.
#   bash scripts/test.sh                  everything (make test)
#   bash scripts/test.sh --no-build       the checks alone, on what is built (after make build)
#   bash scripts/test.sh CHECK...         those checks and what they need (e.g. pytest stubs)
#   bash scripts/test.sh --plan [CHECK...] print the jobs and what each waits for, run nothing
source "$(dirname "$0")/env.sh"
source "$ROOT/scripts/jobs.sh"
cd "$ROOT"
JOB_LOGS="$ROOT/target/logs/test"
export GUNBAI_CI_RUNNER=1 PYO3_PYTHON="$PY"

# The checks, in the order they are declared (earlier ones start first when several are
# ready). Long ones first: the optimized property build and the cargo builds.
CHECKS=(
  property      # the long runs, optimized with debug assertions
  test-core     # cargo test: unit tests, vectors, layering
  clippy
  smoke-rust    # the doctests, in a new project that adds the core by path
  fmt
  doc           # cargo doc, warnings as errors
  generated     # catalog, .d.ts and the Python surface are current
  node          # node --test, tsc
  conformance-node
  pytest
  stubs
  conformance-py
  examples      # README's and the guide's JS and Python examples
  web           # headless Chromium: the package, the sheet, Foundry, Owlbear, Vite
  notebook
  bot
  nonebot       # nonebot-plugin-gunbai under NoneBug
  koishi        # koishi-plugin-gunbai under @koishijs/plugin-mock
  fuzz
  smoke-installed
  smoke-plugins # the NoneBot2 and Koishi plugins installed from dist/
  rule-docs     # docs/rules/ cites only what exists
  rule-coverage # informational
)

# What provides each need: the job's name, its dependencies, its command.
declare -A PROVIDER_DEPS
# The setup parts. Those that write into .venv follow each other (py, py-dev, analysis;
# nonebot has a venv of its own, .venv-nonebot).
PROVIDER_DEPS=(
  [rust]="" [rust-dev]="rust" [wasm]="" [bindgen]="rust" [node]="" [py]="" [py-dev]="py" [web]="" [analysis]="py-dev" [nonebot]="" [koishi]=""
  [xtask]="rust" [tests]="rust" [npm]="wasm bindgen node" [wheel]="py xtask" [dist-py]="wheel" [dist-js]="npm"
)
# (The npm build does not wait for xtask: its wasm builds, the longest chain of make test,
# start at once; build-js.sh runs xtask only after the first entry's cargo build, by
# which time the xtask job has built it.)
job_name() { # NEED: the job that provides it
  case "$1" in
    xtask | tests | npm | wheel) echo "build: $1" ;;
    dist-py | dist-js) echo "dist: ${1#dist-}" ;;
    after:*) echo "${1#after:}" ;;
    *) echo "setup: $1" ;;
  esac
}
provider_cmd() { # NEED: the command that provides it
  case "$1" in
    xtask) echo bash scripts/xtask.sh --path ;;
    tests) echo bash scripts/build-tests.sh ;;
    npm) echo bash scripts/build-js.sh ;;
    wheel) echo bash scripts/build-py.sh ;;
    dist-py) echo bash scripts/dist.sh --py ;;
    dist-js) echo bash scripts/dist.sh --js ;;
    *) echo bash scripts/setup.sh "$1" ;;
  esac
}
needs_of() { # CHECK: the words of its `needs` line
  local f="scripts/ci/$1.sh"
  [ -f "$f" ] || { echo "no check $1 (scripts/ci/$1.sh)" >&2; exit 2; }
  sed -n 's/^needs\( \|$\)//p' "$f" | head -n 1
}

BUILD=1; PLAN=0; selected=()
for a in "$@"; do
  case "$a" in
    --no-build) BUILD=0 ;;
    --plan) PLAN=1 ;;
    -*) echo "usage: test.sh [--no-build] [CHECK...]"; exit 2 ;;
    *) selected+=("$a") ;;
  esac
done
[ ${#selected[@]} -gt 0 ] || selected=("${CHECKS[@]}")

# Declare the providers a check needs (and theirs), once each, then the check.
declare -A DECLARED
declare_need() { # NEED
  local need="$1" dep deps=""
  [ -z "${DECLARED[$need]:-}" ] || return 0
  DECLARED[$need]=1
  case "$need" in after:*) declare_check "${need#after:}"; return ;; esac
  [ -n "${PROVIDER_DEPS[$need]+x}" ] || { echo "unknown need '$need'" >&2; exit 2; }
  for dep in ${PROVIDER_DEPS[$need]}; do declare_need "$dep"; deps+="$(job_name "$dep")|"; done
  # shellcheck disable=SC2046
  job "$(job_name "$need")" "$deps" $(provider_cmd "$need")
}
declare_check() { # CHECK
  local check="$1" need deps=""
  [ -z "${DECLARED[check:$check]:-}" ] || return 0
  DECLARED[check:$check]=1
  for need in $(needs_of "$check"); do
    if [ "$BUILD" = 1 ] || [[ "$need" == after:* ]]; then declare_need "$need"; deps+="$(job_name "$need")|"; fi
  done
  job "$check" "$deps" bash "scripts/ci/$check.sh"
}
if [ "$BUILD" = 0 ]; then
  [ -f "$PKG/inline.js" ] && ls bindings-py/dist/*.whl >/dev/null 2>&1 ||
    { echo "bindings-js/pkg or the wheel is missing: run 'make build' first"; exit 1; }
fi
# The builds first (the npm package is the longest), then the checks in CHECKS' order.
if [ "$BUILD" = 1 ]; then
  wanted=" "
  for check in "${selected[@]}"; do wanted+="$(needs_of "$check") "; done
  for need in npm tests wheel xtask; do
    case "$wanted" in *" $need "* | *" dist-"*) declare_need "$need" ;; esac
  done
fi
for check in "${selected[@]}"; do declare_check "$check"; done
if [ "$PLAN" = 1 ]; then
  for name in "${JOB_NAMES[@]}"; do printf '%-22s after: %s\n' "$name" "${JOB_DEPS[$name]%|}"; done
  exit 0
fi
# Nothing waits for these two: they take the CPU the others leave.
JOB_NICE[test-core]=10
JOB_NICE[clippy]=10

GUNBAI_JOBS="${GUNBAI_JOBS:-5}" run_jobs
echo; echo "all checks passed"
