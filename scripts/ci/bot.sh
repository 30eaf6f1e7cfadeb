#!/usr/bin/env bash
# Drive examples/bot through a pipe: one reply line per input line, settings and
# battle state kept in a JSON file across runs, replies from gunbai.command.run.
source "$(dirname "$0")/lib.sh"
needs wheel py-dev
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # line-number expected
  local got
  got="$(sed -n "${1}p" "$tmp/out1.txt")"
  if [ "$got" != "$2" ]; then
    echo "FAIL line $1: expected [$2], got [$got]"
    fail=1
  fi
}

printf '%s\n' \
  "hello everyone" \
  "!system coc7" \
  "CC(1)<=53 目星" \
  "SCC<=50" \
  "CC(1<=50" \
  "!lang zh-Hans" \
  "!system tmd" \
  "!init Alice TI+3" \
  "!init Bob TI+1" \
  "!order" \
  "!next" \
  "1001D6" \
  "x2 1D6" \
  "!lang en" \
  "!system fap_map" \
  "JE20S2" \
  | "$PY" examples/bot/bot.py --state "$tmp/state.json" --seed 1 >"$tmp/out1.txt"

lines="$(wc -l <"$tmp/out1.txt")"
[ "$lines" -eq 16 ] || { echo "FAIL: 16 input lines gave $lines output lines"; fail=1; }
check 1 ""
check 2 "システム: coc7"
check 3 "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 81, 31 ＞ 31 ＞ レギュラー成功"
check 4 "[secret] (1D100<=50) ボーナス・ペナルティダイス[0] ＞ 63 ＞ 63 ＞ 失敗"
check 5 "コマンドの書式エラー（5文字目）：閉じ括弧「)」が必要です"
check 6 "语言：zh-Hans"
check 7 "系统：tmd"
check 8 "Alice: (TI+3) ＞ 9[9]+3 ＞ 先攻值12"
check 9 "Bob: (TI+1) ＞ 2[2]+1 ＞ 先攻值3"
check 10 "第1轮: 1. Alice 12 / 2. Bob 3"
check 11 "第1轮：Alice的回合"
check 12 "无法执行指令：超出上限（一次最多掷1000个骰子（指定了1001个））"
check 13 "#1 (1D6) ＞ 6 / #2 (1D6) ＞ 1"
check 14 "language: en"
check 15 "system: fap_map"
check 16 "(JE20S2) ＞ degree 2: damage 20 → 8 (60% less) ＞ Agility check (fall prone on a failure)"

# A second run continues the same battle from the state file.
printf '%s\n' "!system tmd" "!next" "!order" "!end" "!order" \
  | "$PY" examples/bot/bot.py --state "$tmp/state.json" --seed 1 >"$tmp/out2.txt"
expected2="$(printf '%s\n' "system: tmd" "round 1: Bob's turn" "round 1: 1. Alice 12 / 2. Bob 3" "battle over" "no battle")"
if [ "$(cat "$tmp/out2.txt")" != "$expected2" ]; then
  echo "FAIL second run:"; diff <(echo "$expected2") "$tmp/out2.txt" || true
  fail=1
fi
"$PY" -c "import json,sys; s=json.load(open(sys.argv[1])); assert s['channels']['stdin']['battle'] is None" "$tmp/state.json" \
  || { echo "FAIL: state file"; fail=1; }

"$PY" -m pytest -q -p no:cacheprovider examples/bot/test_core.py || { echo "FAIL: examples/bot/test_core.py (!undo)"; fail=1; }
[ "$fail" -eq 0 ] && echo "bot: all checks passed"
exit "$fail"
