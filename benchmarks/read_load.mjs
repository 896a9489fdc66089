// GETs through a running server: `node read_load.mjs <setup.json> <path> <seconds> <concurrency>`.
// setup.json: { baseUrl, tokens: [accessToken], origin }. Each of `concurrency` workers sends
// GET <path> with a random user's bearer token (and the browser's Origin, so the API's CORS
// runs) until `seconds` have passed; any answer but 200 counts as failed. Prints
// { completed, failed, seconds, bytes } (bytes: the mean size of a 200's body, to compare the
// floor's answers with the API's). node:http with one kept-alive connection per worker, as
// transfer_load.mjs and for its reason: fetch's CPU would be taken from the servers measured.
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";

const [setupFile, path, seconds, concurrency] = process.argv.slice(2);
const setup = JSON.parse(readFileSync(setupFile, "utf8"));
const { hostname, port } = new URL(setup.baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const pick = (list) => list[Math.floor(Math.random() * list.length)];

/** Resolves with the status and body size once the whole answer has arrived; never rejects. */
function get(token) {
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${token}`, origin: setup.origin };
    const sent = request({ hostname, port, path, method: "GET", agent, headers }, (response) => {
      let size = 0;
      response.on("data", (chunk) => {
        size += chunk.length;
      });
      response.on("end", () => resolve([response.statusCode, size]));
      response.on("error", () => resolve([0, 0]));
    });
    sent.on("error", () => resolve([0, 0]));
    sent.end();
  });
}

const until = Date.now() + Number(seconds) * 1000;
let completed = 0;
let failed = 0;
let bytes = 0;
let firstFailure;
async function worker() {
  while (Date.now() < until) {
    const [status, size] = await get(pick(setup.tokens));
    if (status === 200) {
      completed += 1;
      bytes += size;
    } else {
      failed += 1;
      firstFailure ??= status;
    }
  }
}
const started = Date.now();
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
const elapsed = (Date.now() - started) / 1000;
console.log(JSON.stringify({ completed, failed, firstFailure, seconds: elapsed, bytes: completed && bytes / completed }));
agent.destroy();
