#!/usr/bin/env bash
# plugin-transcript.sh PLUGIN BODY: compare examples/PLUGIN/TRANSCRIPT.md with the
# transcript a plugin test just wrote (BODY) under the standard header; GUNBAI_UPDATE=1
# writes it instead. Used by scripts/ci/nonebot.sh and scripts/ci/koishi.sh.
source "$(dirname "$0")/env.sh"
plugin="$1"; body="$2"
case "$plugin" in
  nonebot) title="nonebot-plugin-gunbai"; how="NoneBug with the OneBot v11 adapter" ;;
  koishi) title="koishi-plugin-gunbai"; how="@koishijs/plugin-mock with @koishijs/plugin-database-memory" ;;
  *) echo "unknown plugin $plugin"; exit 2 ;;
esac
want="$ROOT/examples/$plugin/TRANSCRIPT.md"
{
  printf '# %s: a transcript\n\n' "$title"
  printf 'What the bot sent in the test (`bash scripts/ci/%s.sh`, %s), playing the\n' "$plugin" "$how"
  printf 'sessions of `examples/plugin-sessions.json` with seeded dice. Generated; do not edit\n'
  printf '(`GUNBAI_UPDATE=1 bash scripts/ci/%s.sh` rewrites it). "bot → NAME (private)" is a whisper;\n' "$plugin"
  printf '"↳" says what that answer must show (the line'"'"'s `expect`, which the test checks).\n\n'
  cat "$body"
} >"$body.full"
if [ "${GUNBAI_UPDATE:-0}" = 1 ]; then
  cp "$body.full" "$want"; echo "wrote examples/$plugin/TRANSCRIPT.md"
elif ! diff -u "$want" "$body.full"; then
  echo "FAIL: examples/$plugin/TRANSCRIPT.md differs from what the test sent (above)"; exit 1
else
  echo "$plugin: transcript matches examples/$plugin/TRANSCRIPT.md"
fi
