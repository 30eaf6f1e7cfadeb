#!/usr/bin/env bash
# Browser tests: Debian's chromium, and playwright-core + vite (pinned, npm ci).
# Idempotent. `npx playwright install` is never used: the tests run the system browser.
source "$(dirname "$0")/../env.sh"

if ! [ -x /usr/bin/chromium ]; then
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
fi
# CJK glyphs for the ja / zh-Hant / zh-Hans screenshots (optional for the tests themselves).
if ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
  apt_get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null || \
    echo "fonts-noto-cjk not installed: CJK text will render as boxes in screenshots"
fi
/usr/bin/chromium --version 2>/dev/null

cd "$ROOT/bindings-js/browser-test"
# npm ci when the lock file changed since the last install (stamp = its checksum).
stamp="node_modules/.gunbai-lock.sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
# (The lock file above also pins @owlbear-rodeo/sdk 3.1.0 and its dependencies: the Owlbear
# extension's browser test builds the extension against the real SDK; and typescript,
# for the extension's type check, tsc --checkJs against that SDK, in scripts/ci/web.sh.)

# The Foundry module's type check: tsc --checkJs against the community
# Foundry VTT v13 types (fvtt-types = @league-of-foundry-developers/foundry-vtt-types
# 13.345.1, pinned with their own lock file; its GitHub-only pixi packages are
# overridden with the registry's), npm ci when the lock file changed.
cd "$ROOT/examples/foundry-module/types"
stamp="node_modules/.gunbai-lock.sha256"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
