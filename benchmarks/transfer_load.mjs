// Transfers through a running API: `node transfer_load.mjs <setup.json> <seconds> <concurrency>`.
// setup.json: { baseUrl, users: [{ token, accounts: [id] }], hot: [id] }; the transfers are
// transfer_pairs.mjs's, each with a new Idempotency-Key. The client is node:http with one
// kept-alive connection per worker, not fetch: undici's fetch used about 1 ms of CPU per
// request here, which a 2-core machine takes from the API and the database under test.
import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";
import { runTransfers } from "./transfer_pairs.mjs";

const [setupFile, seconds, concurrency] = process.argv.slice(2);
const setup = JSON.parse(readFileSync(setupFile, "utf8"));
const { hostname, port } = new URL(setup.baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });

/** POSTs `body` as JSON; resolves with the status once the whole answer has arrived. */
function post(path, headers, body) {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        hostname,
        port,
        path,
        method: "POST",
        agent,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode));
        response.on("error", reject);
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

await runTransfers(setup, seconds, concurrency, async (user, from, to, key) => {
  const status = await post(
    "/api/v1/transfers",
    { authorization: `Bearer ${user.token}`, "idempotency-key": `bench-${key}` },
    JSON.stringify({ fromAccountId: from, toAccountId: to, amount: "1.00" }),
  );
  if (status !== 201 && status !== 422 && status !== 409) {
    throw new Error(`transfer answered ${status}`);
  }
  return status === 201;
});
agent.destroy();
