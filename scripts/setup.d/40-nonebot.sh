#!/usr/bin/env bash
# The `nonebot` extra: NoneBot2, its OneBot v11 adapter, NoneBug and pytest-asyncio (pinned)
# and mypy for examples/nonebot (nonebot-plugin-gunbai), in a venv of their own,
# .venv-nonebot: NoneBug is a pytest plugin that every pytest run in its venv loads (it
# starts NoneBot for any test session), so it stays out of .venv. Installed with uv
# (scripts/env.sh), whose cache keeps the downloads. Idempotent: skipped when the same
# pins were installed before.
# scripts/ci/nonebot.sh installs the freshly built gunbai wheel into it.
source "$(dirname "$0")/../env.sh"
venv="$ROOT/.venv-nonebot"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pins=("nonebot2==2.5.0" "nonebot-adapter-onebot==2.4.6" "nonebug==0.4.4" "pytest-asyncio==1.3.0" "pytest>=8,<9" "mypy>=1.13,<2")
stamp="$venv/.gunbai-nonebot"
want="$(printf '%s\n' "${pins[@]}" | sha256sum | cut -d' ' -f1)"
if ! fresh "$stamp" "$want"; then
  uv_install "$venv/bin/python" "${pins[@]}"
  echo "$want" >"$stamp"
fi
"$venv/bin/python" -c "import nonebot, nonebug, nonebot.adapters.onebot.v11; from importlib.metadata import version as v; print('nonebot2', v('nonebot2'), 'adapter-onebot', v('nonebot-adapter-onebot'), 'nonebug', v('nonebug'), '(.venv-nonebot)')"
