#!/usr/bin/env bash
# README examples are executed: every ```js block runs in Node against the built
# package (imported as "gunbai"), every ```python block runs against the wheel.
# (```rust blocks run as doctests of the core: see core/src/lib.rs.)
source "$(dirname "$0")/env.sh"
cd "$ROOT"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/node_modules"; ln -s "$ROOT/bindings-js/pkg" "$tmp/node_modules/gunbai"
"$PY" - "$tmp" <<'PY'
import re, sys, pathlib, textwrap
tmp = pathlib.Path(sys.argv[1])
text = pathlib.Path("README.md").read_text(encoding="utf-8")
n = {"js": 0, "python": 0}
for lang, body in re.findall(r"```(js|python)\n(.*?)```", text, re.S):
    n[lang] += 1
    ext = "mjs" if lang == "js" else "py"
    (tmp / f"{lang}{n[lang]}.{ext}").write_text(textwrap.dedent(body), encoding="utf-8")
print(f"{n['js']} JS and {n['python']} Python README examples")
if not n["js"] or not n["python"]:
    raise SystemExit("README must show a JS and a Python example")
PY
for f in "$tmp"/js*.mjs; do (cd "$ROOT" && node "$f" >/dev/null) || { echo "README example failed: $f"; cat "$f"; exit 1; }; done
for f in "$tmp"/python*.py; do "$PY" "$f" >/dev/null || { echo "README example failed: $f"; cat "$f"; exit 1; }; done
echo "README examples ran"
