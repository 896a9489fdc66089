// The hand-written transfer, straight on the database with pg or mysql2 (loaded from the
// generated project's folder, which has them): one database transaction per transfer with the
// API's locking: both accounts locked in id order, funds checked on the locked rows, the key
// claimed by the transaction row, two ledger entries and both balances moved in one UPDATE
// (the generated Drizzle repository's statements). Each statement is prepared once per
// connection (pg: by name; mysql2: execute()), so the database parses and plans it once: the
// least a transfer can cost it. transfer_baseline.mjs calls it directly; transfer_http_floor.mjs
// serves it over bare HTTP.
import { createRequire } from "node:module";

/** `require` from the generated project's folder: its packages, on every runtime (Deno too,
 * which resolves a bare import only from a module's own package.json). */
export const projectRequire = createRequire(`${process.cwd()}/package.json`);

/** A pool of 10, as the API's: pg.Pool's default, and a mysql2 pool of 10 that, as the API's,
 * captures no stack per query (trace: false). */
export function openDatabase(url) {
  const mysql = url.startsWith("mysql");
  const pool = mysql
    ? projectRequire("mysql2/promise").createPool({ uri: url, connectionLimit: 10, trace: false })
    : new (projectRequire("pg").Pool)({ connectionString: url, max: 10 });
  return { mysql, pool };
}

/** PostgreSQL's and MariaDB's deadlock and serialization failures: the transaction runs again. */
export const RETRYABLE = new Set(["40P01", "40001", "ER_LOCK_DEADLOCK"]);

async function inTransaction({ mysql, pool }, work) {
  const client = mysql ? await pool.getConnection() : await pool.connect();
  // `name`: a statement prepared once per connection; none for BEGIN, COMMIT and ROLLBACK.
  const query = async (name, text, values) => {
    if (mysql) {
      return (await (name ? client.execute(text, values) : client.query(text)))[0];
    }
    return (await client.query(name ? { name, text, values } : text)).rows;
  };
  try {
    for (let attempt = 1; ; attempt += 1) {
      await query(null, mysql ? "start transaction" : "begin");
      try {
        const result = await work(query);
        await query(null, "commit");
        return result;
      } catch (error) {
        await query(null, "rollback");
        if (!RETRYABLE.has(error.code) || attempt === 5) {
          throw error;
        }
      }
    }
  } finally {
    client.release();
  }
}

/** Moves 1.00 from one account to another; true when it completed, false when refused. */
export async function transfer(database, from, to, key) {
  const { mysql } = database;
  const p = (n) => (mysql ? "?" : `$${n}`);
  return inTransaction(database, async (query) => {
    const ids = [Number(from), Number(to)].sort((a, b) => a - b);
    const rows = await query(
      "lock",
      `select id, balance, status, currency, system_account from accounts where id in (${p(1)}, ${p(2)}) order by id for update`,
      ids,
    );
    const source = rows.find((row) => Number(row.id) === Number(from));
    const target = rows.find((row) => Number(row.id) === Number(to));
    const ok =
      source.status === "active" &&
      target.status === "active" &&
      source.currency === target.currency &&
      (source.system_account || Number(source.balance) >= 1);
    const status = ok ? "completed" : "failed";
    const failure = ok ? null : "INSUFFICIENT_FUNDS";
    let id;
    if (mysql) {
      const inserted = await query(
        "claim",
        "insert into transactions (from_account_id, to_account_id, amount, status, failure_code, idempotency_key) values (?, ?, 1.00, ?, ?, ?)",
        [from, to, status, failure, key],
      );
      id = inserted.insertId;
    } else {
      [{ id }] = await query(
        "claim",
        "insert into transactions (from_account_id, to_account_id, amount, status, failure_code, idempotency_key) values ($1, $2, 1.00, $3, $4, $5) on conflict (idempotency_key) do nothing returning id",
        [from, to, status, failure, key],
      );
    }
    if (!ok) {
      return false;
    }
    await query(
      "book",
      `insert into ledgers (account_id, transaction_id, entry_type, amount) values (${p(1)}, ${p(2)}, 'debit', 1.00), (${p(3)}, ${p(4)}, 'credit', 1.00)`,
      [from, id, to, id],
    );
    await query(
      "move",
      `update accounts set balance = balance + case when id = ${p(1)} then -1.00 else 1.00 end where id in (${p(2)}, ${p(3)})`,
      [from, from, to],
    );
    return true;
  });
}
