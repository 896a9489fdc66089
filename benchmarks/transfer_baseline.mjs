// The hand-written baseline: the same transfers as transfer_load.mjs, straight on the database
// (transfer_sql.mjs), with no HTTP at all.
// `node transfer_baseline.mjs <setup.json> <seconds> <concurrency> <database url>`
import { readFileSync } from "node:fs";
import { runTransfers } from "./transfer_pairs.mjs";
import { openDatabase, transfer } from "./transfer_sql.mjs";

const [setupFile, seconds, concurrency, url] = process.argv.slice(2);
const setup = JSON.parse(readFileSync(setupFile, "utf8"));
const database = openDatabase(url);

await runTransfers(setup, seconds, concurrency, (_user, from, to, key) =>
  transfer(database, from, to, `baseline-${key}`),
);
await database.pool.end();
