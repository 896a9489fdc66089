// The generated Prisma Client against a real database whose tables hold all three bundles.
// usage (in the project, with tsx): tsx runtime-checks.mts <path of the project's database.ts> <url>
// Prints one line per check and exits 1 when any fails.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [databaseModule, url] = process.argv.slice(2);
const { createDatabase } = await import(pathToFileURL(resolve(databaseModule)).href);
// On PostgreSQL, the pool's settings (DATABASE_POOL_MAX, DATABASE_POOLER); MariaDB's pool takes none.
const pool = url.startsWith("postgres") ? { max: 4, pooler: "none" } : undefined;
const { db, ping, close } = createDatabase(url, pool);

const failures: string[] = [];
async function check(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    console.log(`ok ${name}`);
  } catch (error) {
    failures.push(name);
    console.log(`FAILED ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
/** The Prisma error code a failing call raises. */
async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return String((error as { code?: string }).code ?? (error as Error).message);
  }
  throw new Error("the call succeeded; it should have failed");
}
async function failure(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the call succeeded; it should have failed");
}

await check("ping", () => ping());
const suffix = Date.now();
let userId = 0;
await check("create with the schema's defaults", async () => {
  const user = await db.user.create({ data: { name: "Ada", email: `ada${suffix}@x.io` } });
  userId = user.id;
  expect(user.role === "user" && user.provider === "local", `defaults: ${user.role}/${user.provider}`);
  expect(user.isEmailVerified === false && user.failedLoginAttempts === 0, "boolean/int defaults");
  expect(user.createdAt instanceof Date && user.updatedAt instanceof Date, "timestamps");
});
await check("P2002 on a duplicate unique", async () => {
  const code = await codeOf(() => db.user.create({ data: { name: "Dup", email: `ada${suffix}@x.io` } }));
  expect(code === "P2002", `got ${code}`);
});
await check("P2003 on a missing foreign key", async () => {
  const code = await codeOf(() =>
    db.session.create({ data: { userId: 999_999, tokenHash: `t${suffix}`, expiresAt: new Date() } }),
  );
  expect(code === "P2003", `got ${code}`);
});
await check("enum value with a database name (otp type email-verification)", async () => {
  const otp = await db.otp.create({
    data: {
      email: "o@x.io", otpHashCode: "h", nextResendAllowedAt: new Date(), type: "emailVerification",
      expiresAt: new Date(),
    },
  });
  expect(otp.type === "emailVerification" && otp.maxAttempts === 5, `${otp.type} ${otp.maxAttempts}`);
});
let from = 0;
let to = 0;
let transactionId = 0;
await check("Decimal(15,2) round-trip", async () => {
  from = (await db.account.create({ data: { userId, type: "savings" } })).id;
  to = (await db.account.create({ data: { userId, type: "current" } })).id;
  const created = await db.transaction.create({
    data: { fromAccountId: from, toAccountId: to, amount: "9999999999999.99", idempotencyKey: `k${suffix}` },
  });
  transactionId = created.id;
  const read = await db.transaction.findUniqueOrThrow({ where: { id: created.id } });
  expect(read.amount.toFixed(2) === "9999999999999.99", `amount ${read.amount}`);
  expect(read.status === "pending", `status ${read.status}`);
});
await check("CHECK amount > 0 (db:migrate's constraint)", async () => {
  await failure(() =>
    db.transaction.create({ data: { fromAccountId: from, toAccountId: to, amount: 0, idempotencyKey: `z${suffix}` } }),
  );
});
await check("CHECK from <> to", async () => {
  await failure(() =>
    db.transaction.create({ data: { fromAccountId: from, toAccountId: from, amount: 1, idempotencyKey: `s${suffix}` } }),
  );
});
await check("ledger entries cannot be updated or deleted", async () => {
  const entry = await db.ledger.create({
    data: { accountId: from, transactionId, entryType: "debit", amount: "10.50" },
  });
  const updated = await failure(() => db.ledger.update({ where: { id: entry.id }, data: { amount: 1 } }));
  expect(/immutable/.test(updated), `update: ${updated}`);
  const deleted = await failure(() => db.ledger.delete({ where: { id: entry.id } }));
  expect(/immutable/.test(deleted), `delete: ${deleted}`);
});
await check("onDelete Restrict (an account with transactions stays)", async () => {
  const code = await codeOf(() => db.account.delete({ where: { id: from } }));
  expect(code === "P2003", `got ${code}`);
});
await check("onDelete Cascade (a post takes its comments and likes)", async () => {
  const author = await db.user.create({ data: { name: "Blog", email: `blog${suffix}@x.io` } });
  const category = await db.category.create({ data: { name: `c${suffix}`, slug: `c${suffix}` } });
  const post = await db.post.create({
    data: { title: "Hello", slug: `hello${suffix}`, authorId: author.id, categoryId: category.id, tags: [] },
  });
  const comment = await db.comment.create({ data: { postId: post.id, authorId: author.id, content: "hi" } });
  await db.postLike.create({ data: { userId: author.id, postId: post.id } });
  await db.commentLike.create({ data: { userId: author.id, commentId: comment.id } });
  await db.post.delete({ where: { id: post.id } });
  const left = [await db.comment.count({ where: { postId: post.id } }), await db.postLike.count({ where: { postId: post.id } })];
  expect(left.join() === "0,0", `left ${left}`);
  const categoryCode = await codeOf(async () => {
    await db.post.create({
      data: { title: "Two", slug: `two${suffix}`, authorId: author.id, categoryId: category.id, tags: [] },
    });
    await db.category.delete({ where: { id: category.id } });
  });
  expect(categoryCode === "P2003", `category restrict: ${categoryCode}`);
});

await close();
if (failures.length > 0) {
  console.log(`${failures.length} failed`);
  process.exit(1);
}
