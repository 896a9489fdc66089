// The served edge in a real browser (Debian's Chromium, headless, driven by playwright-core):
// - the API docs page renders its operations with no console error and no request to another host;
// - front_end.html, from each front-end page URL given, calls the API; the browser enforces CORS;
// - with --passkey, on the docs page of <origin> (the relying party's), the README's console steps
//   (<steps file>) run with Chromium's virtual authenticator (DevTools protocol, WebAuthn domain).
// Prints one JSON object of what it saw; tests/test_stacks.py judges it.
// `node edge_in_browser.mjs <playwright-core's node_modules> <API origin> [--passkey <origin> <steps file>] <page URL>...`
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [nodeModules, apiOrigin, ...rest] = process.argv.slice(2);
const passkey = rest[0] === "--passkey" ? { origin: rest[1], steps: rest[2] } : null;
const pages = passkey ? rest.slice(3) : rest;
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

/**
 * The README's steps in the console of the docs page, with a virtual authenticator that has
 * resident keys and verifies its user (as a phone or a laptop's fingerprint reader does).
 */
async function passkeyCeremonies(origin, steps) {
  const { page, seen } = await watchedPage();
  await page.goto(`${origin}/api/v1/docs`);
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  try {
    return await page.evaluate(`(async () => {\n${steps}\nreturn { registered, signedIn };\n})()`);
  } catch (error) {
    return { error: String(error), errors: seen.errors };
  }
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
  if (passkey) {
    report.passkey = await passkeyCeremonies(passkey.origin, readFileSync(passkey.steps, "utf8"));
  }
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
