#!/usr/bin/env bash
# The examples of README.md and docs/guide/*.md are executed: every ```js block runs in
# Node with the package imported as "gunbai", every ```python block in Python, each block
# alone. (```rust blocks run as doctests of the core: see core/src/lib.rs. A snippet that
# must not run is fenced ```text.)
#   bash scripts/readme-examples.sh        against the source tree: bindings-js/pkg and .venv
#   bash scripts/readme-examples.sh --python PY --node-project DIR --cwd DIR
#       against installed copies (scripts/smoke.sh): PY's own gunbai, the gunbai installed
#       in DIR/node_modules, run from a folder that holds only examples/battles
#   --no-js: the Python examples only
source "$(dirname "$0")/env.sh"
cd "$ROOT"
python="$PY"; project=""; cwd="$ROOT"; js=1
while [ $# -gt 0 ]; do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --node-project) project="$2"; shift 2 ;;
    --cwd) cwd="$2"; shift 2 ;;
    --no-js) js=0; shift ;;
    *) echo "usage: readme-examples.sh [--python PY] [--node-project DIR] [--cwd DIR]"; exit 2 ;;
  esac
done
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
if [ -z "$project" ]; then
  project="$tmp/project"
  mkdir -p "$project/node_modules"; ln -s "$PKG" "$project/node_modules/gunbai"
fi
mkdir -p "$project/readme" "$tmp/python"
python3 - "$ROOT" "$project/readme" "$tmp/python" <<'PY'
import re, sys, pathlib, textwrap
root, js_dir, py_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
docs = [root / "README.md"] + sorted((root / "docs" / "guide").glob("*.md"))
total = {"js": 0, "python": 0}
for doc in docs:
    # Each block's file is named after its document and its place there:
    # README.js1.mjs, docs-guide-api.python2.py.
    stem = "-".join(doc.relative_to(root).with_suffix("").parts)
    n = {"js": 0, "python": 0}
    for lang, body in re.findall(r"```(js|python)\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
        n[lang] += 1
        out = js_dir / f"{stem}.js{n[lang]}.mjs" if lang == "js" else py_dir / f"{stem}.python{n[lang]}.py"
        out.write_text(textwrap.dedent(body), encoding="utf-8")
    if doc.name == "README.md" and doc.parent == root and (not n["js"] or not n["python"]):
        raise SystemExit("README must show a JS and a Python example")
    total = {k: total[k] + n[k] for k in total}
print(f"{total['js']} JS and {total['python']} Python examples from README.md and {len(docs) - 1} guide pages")
PY
# Where "gunbai" resolves from, and which Python package runs: the copies meant.
[ "$js" = 0 ] || (cd "$project/readme" && node --input-type=module -e 'console.log("JS examples import", import.meta.resolve("gunbai"))')
(cd "$cwd" && "$python" -c 'import gunbai; print("Python examples import", gunbai.__file__)')
[ "$js" = 1 ] || rm -f "$project"/readme/*.mjs
for f in "$project"/readme/*.mjs; do
  [ -e "$f" ] || continue
  (cd "$cwd" && node "$f" >/dev/null) || { echo "example failed: $(basename "$f") (document.block)"; cat "$f"; exit 1; }
done
for f in "$tmp"/python/*.py; do
  (cd "$cwd" && "$python" "$f" >/dev/null) || { echo "example failed: $(basename "$f") (document.block)"; cat "$f"; exit 1; }
done
rm -rf "$project/readme"
echo "README and guide examples ran$([ "$js" = 1 ] || echo " (Python only)")"
