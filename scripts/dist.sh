#!/usr/bin/env bash
# `make dist`: the artifacts a user installs, in dist/:
#   gunbai-<version>.tar.gz                   the Python sdist (maturin; builds with rustup alone)
#   gunbai-<version>-cp39-abi3-<platform>.whl the abi3 wheel, built by pip from that sdist
#                                             (both are scripts/build-py.sh's)
#   gunbai-<version>.tgz                      the npm package (npm pack of bindings-js/pkg)
#   plugins/nonebot_plugin_gunbai-<v>-py3-none-any.whl   the NoneBot2 plugin (examples/nonebot)
#   plugins/koishi-plugin-gunbai-<v>.tgz       the Koishi plugin (npm pack of examples/koishi)
# Nothing is rebuilt here: the wheel and the package come from `make build`.
#   bash scripts/dist.sh [--py | --js]   both (default), or only the Python or npm files
# scripts/smoke.sh installs each outside the repository and runs the README examples;
# scripts/ci/smoke-plugins.sh installs the plugins with them into empty projects.
source "$(dirname "$0")/env.sh"
cd "$ROOT"
py=1; js=1
case "${1:-}" in --py) js=0 ;; --js) py=0 ;; "") ;; *) echo "usage: dist.sh [--py | --js]"; exit 2 ;; esac
mkdir -p dist
if [ "$py" = 1 ]; then
  ls bindings-py/dist/*.whl bindings-py/dist/*.tar.gz >/dev/null 2>&1 ||
    { echo "no wheel and sdist in bindings-py/dist: run 'make build-py'"; exit 1; }
  rm -f dist/*.whl dist/*.tar.gz
  cp bindings-py/dist/*.whl bindings-py/dist/*.tar.gz dist/
  # The sdist holds the crates it builds (core, its derive, the Python binding) and no
  # build output.
  sdist="$(ls dist/*.tar.gz)"
  listing="$(tar -tzf "$sdist")"
  grep -q '/core/src/lib.rs$' <<<"$listing" || { echo "$sdist lacks core/src/lib.rs"; exit 1; }
  grep -q '/gunbai/data/coc7_tables.json$' <<<"$listing" || { echo "$sdist lacks gunbai/data/coc7_tables.json"; exit 1; }
  if grep -E '/(target|node_modules|\.venv|dist)/' <<<"$listing"; then echo "$sdist holds build output (above)"; exit 1; fi
  # The NoneBot2 plugin (pure Python; pip fetches setuptools to build it).
  mkdir -p dist/plugins; rm -f dist/plugins/*.whl
  "$PY" -m pip --disable-pip-version-check wheel -q --no-deps -w dist/plugins examples/nonebot
  rm -rf examples/nonebot/build
fi
if [ "$js" = 1 ]; then
  [ -f "$PKG/inline.js" ] && [ -f "$PKG/package.json" ] || { echo "bindings-js/pkg is incomplete: run 'make build-js'"; exit 1; }
  rm -f dist/*.tgz
  (cd "$PKG" && npm pack --silent --pack-destination "$ROOT/dist" >/dev/null)
  # The Koishi plugin.
  mkdir -p dist/plugins; rm -f dist/plugins/*.tgz
  (cd examples/koishi && npm pack --silent --pack-destination "$ROOT/dist/plugins" >/dev/null)
fi
(cd dist && for f in $([ "$py" = 0 ] || echo "*.tar.gz *.whl plugins/*.whl") $([ "$js" = 0 ] || echo "*.tgz plugins/*.tgz"); do
  printf '%-52s %10s bytes  sha256 %s\n' "$f" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -c1-16)"
done)
