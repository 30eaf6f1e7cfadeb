// Shared helpers of the browser tests: Debian's chromium driven by playwright-core,
// only localhost traffic, and the page's console/errors collected for assertions.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";

export const CHROMIUM = process.env.GUNBAI_CHROMIUM || "/usr/bin/chromium";

/**
 * How long a browser test waits for something that must happen (a page re-rendered, a
 * message relayed). A liveness bound, not a speed check: `make test` runs these pages
 * beside four other jobs on two cores, where a render that takes 50 ms alone has taken
 * over 10 s.
 */
export const LIVENESS = 60000;

/** Launch headless chromium (as root it needs --no-sandbox); playwright gives it a fresh user-data-dir. */
export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: run scripts/setup.d/20-web.sh`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A new page that may only talk to 127.0.0.1/localhost; everything else is aborted
 * and recorded in `page.blocked`. Console messages and page errors are recorded in
 * `page.logs` / `page.errors`.
 */
export async function newPage(browser, { viewport = { width: 1280, height: 900 }, locale = "en-US" } = {}) {
  const context = await browser.newContext({ viewport, locale, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(LIVENESS);
  page.blocked = [];
  page.logs = [];
  page.errors = [];
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.protocol === "data:" || u.protocol === "blob:" || u.hostname === "127.0.0.1" || u.hostname === "localhost") {
      return route.continue();
    }
    page.blocked.push(u.href);
    return route.abort();
  });
  page.on("console", (m) => page.logs.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => page.errors.push(String(e && e.stack ? e.stack : e)));
  return page;
}

/**
 * Save a screenshot. The committed ones under examples/(name)/screenshots/ are only
 * rewritten with GUNBAI_SCREENSHOTS=1 (so `make test` leaves the tree clean);
 * otherwise they go to $TMPDIR/gunbai-screenshots/.
 */
export async function screenshot(page, file, opts = {}) {
  if (process.env.GUNBAI_SCREENSHOTS !== "1") file = join(tmpdir(), "gunbai-screenshots", basename(file));
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true, ...opts });
}
