// Transfers through a running API: `node transfer_load.mjs <setup.json> <seconds> <concurrency>`.
// setup.json: { baseUrl, users: [{ token, accounts: [id] }], hot: [id] }. Each worker picks a
// random user and one of their accounts, and sends 1.00 to one of the hot accounts (one time in
// five) or to a random account, with a new Idempotency-Key. Prints { completed, refused, seconds }.
import { readFileSync } from "node:fs";

const [setupFile, seconds, concurrency] = process.argv.slice(2);
const setup = JSON.parse(readFileSync(setupFile, "utf8"));
const everyAccount = setup.users.flatMap((user) => user.accounts);
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const until = Date.now() + Number(seconds) * 1000;
let completed = 0;
let refused = 0;
let sent = 0;

async function worker() {
  while (Date.now() < until) {
    const user = pick(setup.users);
    const from = pick(user.accounts);
    let to = Math.random() < 0.2 ? pick(setup.hot) : pick(everyAccount);
    if (to === from) {
      to = setup.hot.find((id) => id !== from);
    }
    sent += 1;
    const response = await fetch(`${setup.baseUrl}/api/v1/transfers`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${user.token}`,
        "idempotency-key": `bench-${process.pid}-${sent}`,
      },
      body: JSON.stringify({ fromAccountId: from, toAccountId: to, amount: "1.00" }),
    });
    await response.arrayBuffer();
    if (response.status === 201) {
      completed += 1;
    } else if (response.status === 422 || response.status === 409) {
      refused += 1;
    } else {
      throw new Error(`transfer answered ${response.status}`);
    }
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
console.log(JSON.stringify({ completed, refused, seconds: (Date.now() - started) / 1000 }));
