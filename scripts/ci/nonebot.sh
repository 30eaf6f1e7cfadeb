#!/usr/bin/env bash
# nonebot-plugin-gunbai (examples/nonebot) under NoneBug with the OneBot v11 adapter: the
# sessions of examples/plugin-sessions.json (group replies, whispered secret rolls, cards
# in SQLite, the .log JSON Lines), and its transcript (examples/nonebot/TRANSCRIPT.md) is
# what the test sent; mypy checks the plugin. GUNBAI_UPDATE=1 rewrites the transcript.
source "$(dirname "$0")/lib.sh"
needs wheel nonebot
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# NoneBot and NoneBug live in .venv-nonebot (scripts/setup.d/40-nonebot.sh); the wheel
# just built goes there.
NB="$ROOT/.venv-nonebot/bin/python"
flock "$ROOT/.venv-nonebot/.pip.lock" "$NB" -m pip --disable-pip-version-check install -q --force-reinstall --no-deps bindings-py/dist/*.whl
(cd examples/nonebot && "$NB" -m mypy --no-incremental nonebot_plugin_gunbai)
(cd examples/nonebot && GUNBAI_TRANSCRIPT="$tmp/body.md" "$NB" -m pytest -q -p no:cacheprovider tests)
bash scripts/plugin-transcript.sh nonebot "$tmp/body.md"
