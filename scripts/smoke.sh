#!/usr/bin/env bash
# The installed-artifact smoke test (make test runs it after `make dist`): each artifact in
# dist/ is installed outside the repository, into an empty venv or an empty npm project,
# and the README's examples run against that installed copy, not the source tree.
#   wheel  pip install --find-links dist 'gunbai[analysis]' (the notebook README's line);
#          the README's Python examples; the types ship (py.typed, typed modules, the native stub) and mypy --strict
#          accepts the typed usage file against the installed copy
#          (The wheel is the sdist's build: scripts/build-py.sh builds it with `pip wheel`
#          from the sdist's contents, pip fetching maturin, as `pip install` of the sdist
#          does; every Python check tests it.)
#   npm    npm install of the tarball into an empty project; the README's JS examples, and
#          the per-ruleset and inline entries load
#   Rust   `cargo add --path core` in a new cargo project outside the repository; the
#          core's doctests there (README's and the guide's Rust examples, the rustdoc
#          examples: `cargo test -p gunbai --doc`, the core as that project's dependency),
#          then README's Rust examples as the project's main (the same build of the core;
#          target dir target/smoke-rust)
# Needs network access to PyPI (maturin, numpy, pandas, matplotlib) and crates.io, or
# their caches.
#   bash scripts/smoke.sh [PART...]   parts: installed (wheel + npm + README examples),
#                                     rust; no PART: both
source "$(dirname "$0")/env.sh"
cd "$ROOT"
parts=" ${*:-installed rust} "
work="$(mktemp -d /tmp/gunbai-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT
case "$work" in "$ROOT"/*) echo "the smoke test must run outside the repository"; exit 1 ;; esac
# The README examples read examples/battles/*.json from the current folder: that is all
# they get of the repository.
mkdir -p "$work/cwd/examples"; cp -r examples/battles "$work/cwd/examples/"
pip_q=(-q --disable-pip-version-check)
t0=$SECONDS
step() { printf '\n=== %s (at +%s s)\n' "$*" "$((SECONDS - t0))"; }

# installed_here PY: gunbai imports from PY's own site-packages, with its stubs.
installed_here() {
  "$1" - "$ROOT" <<'PY'
import pathlib, sys, sysconfig
import gunbai
root = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(gunbai.__file__).resolve().parent
site = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
assert where.parent == site, f"gunbai imported from {where}, not from {site}"
assert root not in where.parents, f"gunbai imported from the source tree: {where}"
stubs = sorted(p.name for p in where.glob("*.pyi"))
assert (where / "py.typed").is_file() and stubs == ["_native.pyi"], stubs
print(f"gunbai {gunbai.__version__} from {where} ({len(stubs)} stub files, py.typed)")
PY
}

smoke_installed() {
wheel="$(ls "$ROOT"/dist/*.whl)"; tarball="$(ls "$ROOT"/dist/*.tgz)"
step "wheel: pip install --find-links dist 'gunbai[analysis]' into an empty venv"
python3 -m venv "$work/venv-wheel"
# (--only-binary: dist/ also holds the sdist, and this part is the wheel's; pip would
# prefer the wheel anyway)
(cd "$work/cwd" && "$work/venv-wheel/bin/pip" install "${pip_q[@]}" --only-binary gunbai --find-links "$ROOT/dist" 'gunbai[analysis]')
info="$("$work/venv-wheel/bin/pip" show gunbai)"
grep "^Location: $work/venv-wheel/" <<<"$info" >/dev/null || { echo "gunbai is not in the venv: $info"; exit 1; }
echo "dist/$(basename "$wheel") installed"
installed_here "$work/venv-wheel/bin/python"
cp bindings-py/tests/typed_usage.py "$work/cwd/"
(cd "$work/cwd" && "$PY" -m mypy --strict --warn-unused-ignores --no-incremental \
  --python-executable "$work/venv-wheel/bin/python" typed_usage.py)

step "npm: npm install the tarball into an empty project"
mkdir -p "$work/npm-project"
(cd "$work/npm-project" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$tarball")
(cd "$work/npm-project" && node --input-type=module - <<'NODE'
import { fileURLToPath } from "node:url";
const where = fileURLToPath(import.meta.resolve("gunbai"));
if (!where.startsWith(process.cwd() + "/node_modules/gunbai/")) throw new Error(`gunbai resolves to ${where}`);
for (const entry of ["gunbai", "gunbai/inline", "gunbai/world-trigger", "gunbai/coc6", "gunbai/coc7", "gunbai/tmd", "gunbai/fap-map",
                     "gunbai/tmd/inline"]) {
  const g = await import(entry);
  const r = g.dice.roll({ expr: "2d6+1", seed: 42 });
  if (r.total !== 3) throw new Error(`${entry}: dice.roll gave ${r.total}`);
}
console.log(`installed gunbai from ${where}: every entry loads`);
NODE
)

step "README examples against the installed wheel and npm package"
bash scripts/readme-examples.sh --python "$work/venv-wheel/bin/python" --node-project "$work/npm-project" --cwd "$work/cwd"

}

smoke_rust() {
step "Rust: cargo add --path core in a new project; the core's doctests there; the README's Rust examples as main"
cargo new -q --vcs none "$work/rust-project"
cp Cargo.lock "$work/rust-project/" # the same dependency versions as the workspace
(cd "$work/rust-project" && cargo add -q --path "$ROOT/core" && { cargo add -q --offline serde_json@1 || cargo add -q serde_json@1; })
python3 - "$ROOT/README.md" "$work/rust-project/src/main.rs" <<'PY'
import re, sys, pathlib, textwrap
blocks = re.findall(r"```rust\n(.*?)```", pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"), re.S)
if not blocks:
    raise SystemExit("README has no Rust example")
body = "\n".join(f"    {{\n{textwrap.indent(textwrap.dedent(b), '        ')}    }}" for b in blocks)
pathlib.Path(sys.argv[2]).write_text(f"fn main() {{\n{body}\n    println!(\"{len(blocks)} README Rust example(s) ran\");\n}}\n", encoding="utf-8")
PY
# The doctests build the core once, as this project's dependency; `cargo run` reuses it.
# Without debug info (the route is the users'; the debug info is not what it checks):
# 80 CPU-s against 98 with the default.
(cd "$work/rust-project" && export CARGO_TARGET_DIR="$ROOT/target/smoke-rust" CARGO_PROFILE_DEV_DEBUG=0 &&
  cargo test -q -p gunbai --doc 2>&1 | grep -Ev '^\s*$|^running [0-9]+ tests?$|^[.i]*$' && cargo run -q)
}

for part in $parts; do
  case "$part" in
    installed) smoke_installed ;;
    rust) smoke_rust ;;
    *) echo "unknown smoke part: $part (installed, rust)"; exit 2 ;;
  esac
done

echo "smoke test ($((SECONDS - t0)) s, parts:$parts): installed outside the repository, the artifacts ran the README examples"
