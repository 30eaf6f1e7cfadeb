#!/usr/bin/env bash
# The `nonebot` extra: NoneBot2, its OneBot v11 adapter and NoneBug (pytest) for
# examples/nonebot (nonebot-plugin-gunbai), pinned, into .venv; pip's cache keeps the
# downloads. Idempotent: skipped when the same pins were installed before.
source "$(dirname "$0")/../env.sh"
[ -x "$PY" ] || python3 -m venv "$VENV"
pins=("nonebot2==2.5.0" "nonebot-adapter-onebot==2.4.6" "nonebug==0.4.4" "pytest-asyncio==1.3.0" "pytest>=8,<9")
stamp="$VENV/.gunbai-nonebot"
want="$(printf '%s\n' "${pins[@]}" | sha256sum | cut -d' ' -f1)"
if ! fresh "$stamp" "$want"; then
  venv_pip install -q "${pins[@]}"
  echo "$want" >"$stamp"
fi
"$PY" -c "import nonebot, nonebug, nonebot.adapters.onebot.v11; from importlib.metadata import version as v; print('nonebot2', v('nonebot2'), 'adapter-onebot', v('nonebot-adapter-onebot'), 'nonebug', v('nonebug'))"
