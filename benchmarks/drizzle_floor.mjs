// Drizzle's own floor: the authenticated floor's work (transfer_sql.mjs, transfer_http_floor.mjs)
// and the read floor's (read_floor.mjs) through Drizzle, on the generated project's own tables,
// at the least cost Drizzle's documentation gives: its query builder, each query built once with
// placeholders and prepared (its "prepared statements" for performance: no SQL built per call,
// and PostgreSQL parses and plans each statement once per connection), a transaction as
// `db.transaction(async (tx) => …)`, the locking read with `.for("update")`. Drizzle binds a
// prepared query to the session it was prepared on and runs a transaction on a connection of its
// own (drizzle-orm#2826), so a transfer's statements are prepared once per pooled connection, on a
// Drizzle session of that connection (the API's repositories do the same). The statements are
// the API's: the session checked and the user read by the same selects, a page of posts with its
// author, category and like count (a subquery) and their count, a transfer's accounts locked in
// id order, the key claimed by the transaction row, both ledger entries in one insert, both
// balances in one update. What the API costs beyond this floor in a framework's floor is its
// own: validation, the services, the edge, the views.
// The tables, Drizzle and its driver come from the project (drizzle-floor.cjs in its folder,
// bundled by the benchmark from its schema: transfer_speed.drizzle_floor_bundle), so this floor
// runs the project's own table definitions with the project's Drizzle.
import { openDatabase, projectRequire, RETRYABLE } from "./transfer_sql.mjs";

/** Drizzle over the baseline's pool of 10 (transfer_sql.mjs), as the API's. */
export async function open(url) {
  const orm = projectRequire("./drizzle-floor.cjs");
  const { mysql, pool } = openDatabase(url);
  const db = mysql ? orm.drizzle(pool, { mode: "default" }) : orm.drizzle(pool);
  // A prepared query: by name on PostgreSQL; mysql2 keeps one by its text.
  const prepared = (query, name) => (mysql ? query.prepare() : query.prepare(name));
  const database = { db, orm, mysql, pool, prepared, perConnection: new WeakMap(), close: () => pool.end() };
  const { and, eq, gt, sessions, sql, users } = orm;
  database.session = prepared(
    db
      .select({ userId: sessions.userId, role: users.role, isDeleted: users.isDeleted })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder("id")), and(eq(sessions.isActive, true), gt(sessions.expiresAt, sql.placeholder("now")))))
      .limit(1),
    "floor_session",
  );
  return database;
}

/** The session of the token's claims, checked by the API's select: active, and its user not deleted. */
export async function sessionIsActive(database, claims) {
  const [session] = await database.session.execute({ id: Number(claims.sid), now: new Date() });
  return session !== undefined && String(session.userId) === claims.sub && !session.isDeleted;
}

/** A transfer's statements, built and prepared on one connection's Drizzle session. */
function transferStatements({ orm, mysql, prepared }, connection) {
  const { accounts, and, asc, eq, inArray, ledgers, sql, transactions } = orm;
  const value = (name) => sql.placeholder(name);
  const locked = connection
    .select({
      id: accounts.id,
      userId: accounts.userId,
      currency: accounts.currency,
      status: accounts.status,
      systemAccount: accounts.systemAccount,
      balance: accounts.balance,
    })
    .from(accounts)
    .where(inArray(accounts.id, [value("first"), value("second")]))
    .orderBy(asc(accounts.id))
    .for("update");
  const insert = connection.insert(transactions).values({
    fromAccountId: value("from"),
    toAccountId: value("to"),
    amount: value("amount"),
    idempotencyKey: value("key"),
    status: value("status"),
    failureCode: value("failure"),
  });
  const claim = mysql
    ? insert
    : insert.onConflictDoNothing({ target: transactions.idempotencyKey }).returning({ id: transactions.id });
  const entries = connection.insert(ledgers).values([
    { accountId: value("from"), transactionId: value("id"), entryType: "debit", amount: value("amount") },
    { accountId: value("to"), transactionId: value("id"), entryType: "credit", amount: value("amount") },
  ]);
  const delta = sql`case when ${accounts.id} = ${value("from")} then -1.00 else 1.00 end`;
  const move = connection
    .update(accounts)
    .set({ balance: sql`${accounts.balance} + ${delta}` })
    .where(and(inArray(accounts.id, [value("from"), value("to")]), eq(accounts.systemAccount, false)));
  return {
    lock: prepared(locked, "floor_lock"),
    claim: prepared(claim, "floor_claim"),
    entries: prepared(entries, "floor_entries"),
    move: prepared(move, "floor_move"),
  };
}

/**
 * Runs `work` in a transaction on a pooled connection, with its statements (prepared on the
 * connection's first transaction). On MariaDB, statements with values go through mysql2's
 * execute(), which prepares them once per connection, as the API's do.
 */
async function inTransaction(database, work) {
  const { orm, mysql, pool, perConnection } = database;
  const checkout = mysql ? await pool.getConnection() : await pool.connect();
  // mysql2 wraps the pooled connection anew on every checkout: the one beneath lasts.
  const lasting = mysql ? checkout.connection : checkout;
  try {
    let own = perConnection.get(lasting);
    if (!own) {
      const client = mysql
        ? Object.create(checkout, {
            query: { value: (query, values) => (values?.length ? checkout.execute(query, values) : checkout.query(query, values)) },
          })
        : checkout;
      const connection = mysql ? orm.drizzle(client, { mode: "default" }) : orm.drizzle(client);
      own = { connection, statements: transferStatements(database, connection) };
      perConnection.set(lasting, own);
    }
    const { connection, statements } = own;
    return await connection.transaction((tx) => work(tx, statements));
  } finally {
    checkout.release();
  }
}

/** Moves 1.00 from one account to another; true when it completed, false when refused. */
export async function transfer(database, from, to, key) {
  const fromId = Number(from);
  const toId = Number(to);
  const [first, second] = [fromId, toId].sort((a, b) => a - b);
  const work = async (_tx, statements) => {
    const rows = await statements.lock.execute({ first, second });
    const source = rows.find((row) => row.id === fromId);
    const target = rows.find((row) => row.id === toId);
    const ok =
      source.status === "active" &&
      target.status === "active" &&
      source.currency === target.currency &&
      (source.systemAccount || Number(source.balance) >= 1);
    const values = {
      from: fromId,
      to: toId,
      amount: "1.00",
      key,
      status: ok ? "completed" : "failed",
      failure: ok ? null : "INSUFFICIENT_FUNDS",
    };
    const claimed = await statements.claim.execute(values);
    const id = database.mysql ? claimed[0].insertId : claimed[0]?.id;
    if (!ok || id === undefined) {
      return false;
    }
    await statements.entries.execute({ ...values, id });
    await statements.move.execute(values);
    return true;
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await inTransaction(database, work);
    } catch (error) {
      // Drizzle wraps the driver's error (its cause); the baseline's codes run again.
      if (!RETRYABLE.has((error?.cause ?? error)?.code) || attempt === 5) {
        throw error;
      }
    }
  }
}

const PAGE = 20;
const iso = (date) => date?.toISOString() ?? null;

/** read_floor.mjs's answers through Drizzle: the API's selects, prepared once, in its answers' shape. */
export function reads(database) {
  const { db, orm, prepared } = database;
  const { categories, count, desc, eq, postLikes, posts, sql, users } = orm;
  const published = eq(posts.status, "published");
  const category = { id: categories.id, name: categories.name, slug: categories.slug };
  const likeCount = db.$count(postLikes, eq(postLikes.postId, posts.id));
  const page = prepared(
    db
      .select({ post: posts, authorName: users.name, category, likeCount })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.authorId))
      .leftJoin(categories, eq(categories.id, posts.categoryId))
      .where(published)
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(sql.placeholder("limit")),
    "floor_posts",
  );
  const pageCount = prepared(
    db.select({ value: count() }).from(posts).leftJoin(categories, eq(categories.id, posts.categoryId)).where(published),
    "floor_post_count",
  );
  const userById = prepared(db.select().from(users).where(eq(users.id, sql.placeholder("id"))).limit(1), "floor_user");
  async function postsPage() {
    const [rows, [total]] = await Promise.all([page.execute({ limit: PAGE }), pageCount.execute()]);
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
    const [user] = await userById.execute({ id: Number(claims.sub) });
    if (!user) {
      return [401, { message: "the session has ended" }];
    }
    const { id, name, email, avatar, role, isEmailVerified } = user;
    return [200, { user: { _id: String(id), name, email, avatar, role, isEmailVerified } }];
  }
  return { posts: postsPage, me };
}
