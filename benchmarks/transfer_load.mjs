// Transfers through a running API: `node transfer_load.mjs <setup.json> <seconds> <concurrency>`.
// setup.json: { baseUrl, users: [{ token, accounts: [id] }], hot: [id] }; the transfers are
// transfer_pairs.mjs's, each with a new Idempotency-Key.
import { readFileSync } from "node:fs";
import { runTransfers } from "./transfer_pairs.mjs";

const [setupFile, seconds, concurrency] = process.argv.slice(2);
const setup = JSON.parse(readFileSync(setupFile, "utf8"));

await runTransfers(setup, seconds, concurrency, async (user, from, to, key) => {
  const response = await fetch(`${setup.baseUrl}/api/v1/transfers`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${user.token}`,
      "idempotency-key": `bench-${key}`,
    },
    body: JSON.stringify({ fromAccountId: from, toAccountId: to, amount: "1.00" }),
  });
  await response.arrayBuffer();
  if (response.status !== 201 && response.status !== 422 && response.status !== 409) {
    throw new Error(`transfer answered ${response.status}`);
  }
  return response.status === 201;
});
