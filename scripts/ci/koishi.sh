#!/usr/bin/env bash
# koishi-plugin-gunbai (examples/koishi) under Koishi's test utilities (@koishijs/plugin-mock,
# @koishijs/plugin-database-memory): the sessions of examples/plugin-sessions.json (the
# NoneBot plugin's too): group replies, whispered secret rolls, cards in the database
# service, the .log JSON Lines; its transcript (examples/koishi/TRANSCRIPT.md) is what the
# test sent. GUNBAI_UPDATE=1 rewrites the transcript.
source "$(dirname "$0")/lib.sh"
needs npm koishi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The plugin's peer dependency: this repository's gunbai package.
ln -sfn "$PKG" examples/koishi/node_modules/gunbai
(cd examples/koishi && GUNBAI_TRANSCRIPT="$tmp/body.md" node --test test/)
bash scripts/plugin-transcript.sh koishi "$tmp/body.md"
