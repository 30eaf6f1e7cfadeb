#!/usr/bin/env bash
# The `koishi` extra: Koishi 4.18.11, @koishijs/plugin-mock and
# @koishijs/plugin-database-memory (pinned with examples/koishi/package-lock.json) for
# koishi-plugin-gunbai's test; npm ci when the lock file changed (npm's cache keeps the
# downloads). The gunbai package itself is this repository's build (bindings-js/pkg),
# linked in by scripts/ci/koishi.sh.
source "$(dirname "$0")/../env.sh"
command -v node >/dev/null || { echo "node not found: install Node.js 20+"; exit 1; }
cd "$ROOT/examples/koishi"
stamp="node_modules/.gunbai-lock.sha256"
want="$(cat package-lock.json package.json .npmrc | sha256sum | cut -d' ' -f1)"
if ! fresh "$stamp" "$want"; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi
node -e "console.log('koishi', require('koishi/package.json').version, 'plugin-mock', require('@koishijs/plugin-mock/package.json').version, 'database-memory', require('@koishijs/plugin-database-memory/package.json').version)"
