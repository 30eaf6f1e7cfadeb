#!/usr/bin/env bash
# The chat-bot plugins installed from dist/ into empty projects outside the repository:
#   nonebot  an empty venv: pip install nonebot-plugin-gunbai from dist/plugins with the gunbai
#            wheel from dist/ (and NoneBot2, the OneBot v11 adapter, NoneBug, pinned)
#   koishi   an empty npm project: npm install of dist/plugins/koishi-plugin-gunbai-*.tgz and
#            dist/gunbai-*.tgz (and Koishi, plugin-mock, database-memory, pinned)
# Each plugin's own test then plays examples/plugin-sessions.json against the installed
# copy (.r 1d100, .st, .ra, .sc, .rh whispered, .log, in Japanese, Chinese and English).
source "$(dirname "$0")/lib.sh"
needs dist-py dist-js
work="$(mktemp -d /tmp/gunbai-plugins.XXXXXX)"
trap 'rm -rf "$work"' EXIT
case "$work" in "$ROOT"/*) echo "the smoke test must run outside the repository"; exit 1 ;; esac
cp examples/plugin-sessions.json "$work/"
export GUNBAI_SESSIONS="$work/plugin-sessions.json"
t0=$SECONDS

step "nonebot-plugin-gunbai: pip install from dist/ into an empty venv (at +$((SECONDS - t0)) s)"
python3 -m venv "$work/venv"
mkdir -p "$work/nonebot-project"
cp -r examples/nonebot/tests "$work/nonebot-project/"
(cd "$work/nonebot-project" && "$work/venv/bin/pip" install -q --disable-pip-version-check \
  --only-binary gunbai --find-links "$ROOT/dist" --find-links "$ROOT/dist/plugins" \
  nonebot-plugin-gunbai "nonebot2==2.5.0" "nonebot-adapter-onebot==2.4.6" "nonebug==0.4.4" "pytest-asyncio==1.3.0" "pytest>=8,<9")
(cd "$work/nonebot-project" && "$work/venv/bin/python" - "$work/venv" <<'PY'
import pathlib, sys
import importlib.util
for name in ("nonebot_plugin_gunbai", "gunbai"):
    where = pathlib.Path(importlib.util.find_spec(name).origin).resolve()
    assert str(where).startswith(str(pathlib.Path(sys.argv[1]).resolve())), f"{name} from {where}"
    print(f"{name} installed at {where.parent}")
PY
)
(cd "$work/nonebot-project" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests)

step "koishi-plugin-gunbai: npm install from dist/ into an empty project (at +$((SECONDS - t0)) s)"
mkdir -p "$work/koishi-project/test"
cp examples/koishi/test/plugin.test.js "$work/koishi-project/test/"
(cd "$work/koishi-project" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error \
  "$(ls "$ROOT"/dist/gunbai-*.tgz)" "$(ls "$ROOT"/dist/plugins/koishi-plugin-gunbai-*.tgz)" \
  koishi@4.18.11 @koishijs/plugin-mock@2.6.6 @koishijs/plugin-database-memory@3.7.0)
(cd "$work/koishi-project" && node -e "
const where = require.resolve('koishi-plugin-gunbai')
if (!where.startsWith(process.cwd() + '/node_modules/')) throw new Error('koishi-plugin-gunbai from ' + where)
console.log('koishi-plugin-gunbai installed at', where)")
(cd "$work/koishi-project" && GUNBAI_PLUGIN=koishi-plugin-gunbai node --test test/)
echo "plugins smoke test ($((SECONDS - t0)) s): both plugins, installed from dist/ outside the repository, played the sessions"
