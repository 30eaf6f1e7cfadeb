#!/usr/bin/env bash
# The fuzz harness (scripts/fuzz/fuzz.py): every object schema of the catalog
# says additionalProperties (nested ones too), one extra key at every object
# position of every operation's schema, then mutated arguments of every operation on
# both surfaces (the wheel's Python and the npm package in Node), with a fixed seed and
# a bounded count, and hostile calls on the Python game handles. Fails on a panic, a
# trap, an `internal` error, an exception other than GunbaiError, a hang, a refused
# handle call that changed the state, or any difference between Python and Node.
# Prints per surface the calls made, the corrupt states tried and accepted by engine,
# the exceptions other than GunbaiError, the largest reply and the slowest call.
#   bash scripts/ci/fuzz.sh                 the make test run (3,000 calls per surface)
#   bash scripts/ci/fuzz.sh --long          30,000 calls per surface
#   bash scripts/ci/fuzz.sh --seed N --count N
source "$(dirname "$0")/lib.sh"
needs npm wheel
args=(--seed 28 --count 3000)
if [ "${1:-}" = --long ]; then
  args=(--seed 28 --count 30000)
  shift
fi
exec "$PY" scripts/fuzz/fuzz.py "${args[@]}" --pkg "$PKG" "$@"
