// The served edge in a real browser (Debian's Chromium, headless, driven by playwright-core):
// - the API docs page renders its operations with no console error and no request to another host;
// - front_end.html, from each front-end page URL given, calls the API; the browser enforces CORS.
// Prints one JSON object of what it saw; tests/test_stacks.py judges it.
// `node edge_in_browser.mjs <playwright-core's node_modules> <API origin> <page URL>...`
import { createRequire } from "node:module";
import { join } from "node:path";

const [nodeModules, apiOrigin, ...pages] = process.argv.slice(2);
const { chromium } = createRequire(join(nodeModules, "noop.js"))("playwright-core");

// The flags keep Chromium off the network it would otherwise reach for at start (closed here).
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

/** A new page that records its console errors, uncaught errors and every URL it requests. */
async function watchedPage() {
  const page = await browser.newPage();
  const seen = { errors: [], requests: [] };
  page.on("console", (message) => message.type() === "error" && seen.errors.push(message.text()));
  page.on("pageerror", (error) => seen.errors.push(String(error)));
  page.on("request", (request) => seen.requests.push(request.url()));
  return { page, seen };
}

try {
  const report = { pages: [] };
  const docs = await watchedPage();
  await docs.page.goto(`${apiOrigin}/api/v1/docs`);
  await docs.page.waitForSelector(".opblock", { timeout: 30_000 });
  report.docs = {
    operations: await docs.page.locator(".opblock").count(),
    errors: docs.seen.errors,
    elsewhere: docs.seen.requests.filter((url) => !url.startsWith(`${apiOrigin}/`)),
  };
  for (const url of pages) {
    const front = await watchedPage();
    await front.page.goto(url);
    await front.page.waitForFunction(() => document.getElementById("result").textContent, null, {
      timeout: 30_000,
    });
    const result = JSON.parse(await front.page.textContent("#result"));
    report.pages.push({ url: url.split("?")[0], result, errors: front.seen.errors });
  }
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
