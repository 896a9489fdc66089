// Drizzle's own floor: the authenticated floor's work (transfer_sql.mjs, transfer_http_floor.mjs)
// and the read floor's (read_floor.mjs) through Drizzle, on the generated project's own tables,
// written as Drizzle's documentation writes them: its query builder (select, joins, insert,
// update), a transaction as `db.transaction(async (tx) => …)`, the locking read with
// `.for("update")`. Each query is built when it is sent, as the documentation's examples do; the
// API builds its hot ones once, with placeholders, and prepares them (its repositories'
// `prepared`): what that saves shows as the API's ratio to this floor. The statements are the
// API's: the session checked and the user read by the same selects, a page of posts with its
// author, category and like count (a subquery) and their count, a transfer's accounts locked in
// id order, the key claimed by the transaction row, both ledger entries in one insert, both
// balances in one update.
// The tables, Drizzle and its driver come from the project (drizzle-floor.mjs in its folder,
// bundled by the benchmark from its schema: transfer_speed.drizzle_floor_bundle), so this floor
// runs the project's own table definitions with the project's Drizzle.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** Drizzle over a pool of 10, as the API's (pg.Pool's default, and mysql2's as the API makes it). */
export async function openDrizzle(url) {
  const cwd = process.cwd();
  const require = createRequire(`${cwd}/package.json`);
  const orm = await import(pathToFileURL(`${cwd}/drizzle-floor.mjs`).href);
  const mysql = url.startsWith("mysql");
  const pool = mysql
    ? require("mysql2/promise").createPool({ uri: url, connectionLimit: 10, trace: false })
    : new (require("pg").Pool)({ connectionString: url, max: 10 });
  const db = orm.drizzle({ client: pool });
  return { db, orm, mysql, close: () => pool.end() };
}

/** The session of the token's claims, checked by the API's select: active, and its user not deleted. */
export async function sessionIsActive({ db, orm }, claims) {
  const { and, eq, gt, sessions, users } = orm;
  const [session] = await db
    .select({ userId: sessions.userId, role: users.role, isDeleted: users.isDeleted })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, Number(claims.sid)), and(eq(sessions.isActive, true), gt(sessions.expiresAt, new Date()))))
    .limit(1);
  return session !== undefined && String(session.userId) === claims.sub && !session.isDeleted;
}

/** PostgreSQL's and MariaDB's deadlock and serialization failures: the transaction runs again. */
const RETRYABLE = new Set(["40P01", "40001", "ER_LOCK_DEADLOCK"]);

/** Moves 1.00 from one account to another; true when it completed, false when refused. */
export async function transfer({ db, orm, mysql }, from, to, key) {
  const { accounts, and, asc, eq, inArray, ledgers, sql, transactions } = orm;
  const fromId = Number(from);
  const toId = Number(to);
  const ids = [fromId, toId].sort((a, b) => a - b);
  const work = async (tx) => {
    const rows = await tx
      .select({
        id: accounts.id,
        userId: accounts.userId,
        currency: accounts.currency,
        status: accounts.status,
        systemAccount: accounts.systemAccount,
        balance: accounts.balance,
      })
      .from(accounts)
      .where(inArray(accounts.id, ids))
      .orderBy(asc(accounts.id))
      .for("update");
    const source = rows.find((row) => row.id === fromId);
    const target = rows.find((row) => row.id === toId);
    const ok =
      source.status === "active" &&
      target.status === "active" &&
      source.currency === target.currency &&
      (source.systemAccount || Number(source.balance) >= 1);
    const row = {
      fromAccountId: fromId,
      toAccountId: toId,
      amount: "1.00",
      idempotencyKey: key,
      status: ok ? "completed" : "failed",
      failureCode: ok ? null : "INSUFFICIENT_FUNDS",
    };
    const [claimed] = mysql
      ? await tx.insert(transactions).values(row).$returningId()
      : await tx
          .insert(transactions)
          .values(row)
          .onConflictDoNothing({ target: transactions.idempotencyKey })
          .returning({ id: transactions.id });
    if (!ok || !claimed) {
      return false;
    }
    await tx.insert(ledgers).values([
      { accountId: fromId, transactionId: claimed.id, entryType: "debit", amount: "1.00" },
      { accountId: toId, transactionId: claimed.id, entryType: "credit", amount: "1.00" },
    ]);
    const delta = sql`case when ${accounts.id} = ${fromId} then -1.00 else 1.00 end`;
    await tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${delta}` })
      .where(and(inArray(accounts.id, [fromId, toId]), eq(accounts.systemAccount, false)));
    return true;
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      // Drizzle wraps the driver's error (its cause).
      if (!RETRYABLE.has((error?.cause ?? error)?.code) || attempt === 5) {
        throw error;
      }
    }
  }
}

const PAGE = 20;
const iso = (date) => date?.toISOString() ?? null;

/** read_floor.mjs's answers through Drizzle: the API's selects, in its answers' shape. */
export function reads(database) {
  const { db, orm } = database;
  const { categories, count, desc, eq, postLikes, posts, users } = orm;
  async function postsPage() {
    const published = eq(posts.status, "published");
    const category = { id: categories.id, name: categories.name, slug: categories.slug };
    const likeCount = db.$count(postLikes, eq(postLikes.postId, posts.id));
    const [rows, [total]] = await Promise.all([
      db
        .select({ post: posts, authorName: users.name, category, likeCount })
        .from(posts)
        .innerJoin(users, eq(users.id, posts.authorId))
        .leftJoin(categories, eq(categories.id, posts.categoryId))
        .where(published)
        .orderBy(desc(posts.publishedAt), desc(posts.id))
        .limit(PAGE),
      db
        .select({ value: count() })
        .from(posts)
        .leftJoin(categories, eq(categories.id, posts.categoryId))
        .where(published),
    ]);
    const data = rows.map(({ post, authorName, category: joined, likeCount: likes }) => ({
      _id: String(post.id),
      title: post.title,
      slug: post.slug,
      content: post.content ?? "",
      excerpt: post.excerpt,
      author: { _id: String(post.authorId), name: authorName },
      category: joined && { _id: String(joined.id), name: joined.name, slug: joined.slug },
      tags: post.tags ?? [],
      featuredImage: post.featuredImage,
      views: post.views,
      likeCount: Number(likes),
      status: post.status,
      publishedAt: iso(post.publishedAt),
      createdAt: iso(post.createdAt),
      updatedAt: iso(post.updatedAt),
    }));
    const pages = Math.ceil(total.value / PAGE);
    return [200, { data, pagination: { page: 1, limit: PAGE, total: total.value, pages } }];
  }
  async function me(claims) {
    if (!(await sessionIsActive(database, claims))) {
      return [401, { message: "the session has ended" }];
    }
    const [user] = await db.select().from(users).where(eq(users.id, Number(claims.sub))).limit(1);
    if (!user) {
      return [401, { message: "the session has ended" }];
    }
    const { id, name, email, avatar, role, isEmailVerified } = user;
    return [200, { user: { _id: String(id), name, email, avatar, role, isEmailVerified } }];
  }
  return { posts: postsPage, me };
}
