// Prisma's own floor: the authenticated floor's work (transfer_sql.mjs, transfer_http_floor.mjs)
// through the generated project's Prisma Client, written as Prisma's documentation writes it:
// an interactive transaction (`$transaction(async (tx) => …)`), the models' methods where they
// have one, `$queryRaw` for the locking read Prisma has none for. The statements are those the
// API sent before it took raw SQL for two of them: the accounts locked in id order, the key
// claimed by the transaction row (PostgreSQL: createManyAndReturn, ON CONFLICT DO NOTHING;
// MySQL, which returns no rows from an INSERT: createMany, then the row read back by its key),
// both ledger entries in one createMany, both balances in one UPDATE; the session checked by one
// findFirst of its user (EXISTS: one statement). Prisma 7 plans createMany and
// createManyAndReturn anew on every call, so the API, which sends those two as raw SQL, runs
// above this floor: what it costs beyond the authenticated floor is Prisma's way, and what the
// API saves against it is what leaving that way for the hot statements gives.
// The client is the project's: its build's `dist/generated/prisma/client.js`, or, where the
// project has no build (Bun and Deno run TypeScript), `src/generated/prisma/client.ts`.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { openDatabase, projectRequire } from "./transfer_sql.mjs";

/** The project's Prisma Client over a pool of 10, as the API's (pg.Pool's and mariadb's default). */
export async function open(url) {
  const cwd = process.cwd();
  const built = `${cwd}/dist/generated/prisma/client.js`;
  const client = existsSync(built) ? built : `${cwd}/src/generated/prisma/client.ts`;
  const { PrismaClient, Prisma } = await import(pathToFileURL(client).href);
  const mysql = url.startsWith("mysql");
  let adapter;
  if (mysql) {
    const { PrismaMariaDb } = projectRequire("@prisma/adapter-mariadb");
    const { hostname, port, username, password, pathname } = new URL(url);
    adapter = new PrismaMariaDb({
      host: hostname,
      port: Number(port || 3306),
      user: decodeURIComponent(username),
      password: decodeURIComponent(password),
      database: decodeURIComponent(pathname.slice(1)),
      connectionLimit: 10,
    });
  } else {
    const { PrismaPg } = projectRequire("@prisma/adapter-pg");
    adapter = new PrismaPg(openDatabase(url).pool);
  }
  const prisma = new PrismaClient({ adapter });
  return { prisma, Prisma, mysql, close: () => prisma.$disconnect() };
}

/** Whether the token's session is active and its user not deleted (the API's findActiveSession). */
export async function sessionIsActive({ prisma }, claims) {
  const session = { id: Number(claims.sid), isActive: true, expiresAt: { gt: new Date() } };
  const user = await prisma.user.findFirst({
    where: { sessions: { some: session } },
    select: { id: true, role: true, isDeleted: true },
  });
  return user !== null && String(user.id) === claims.sub && !user.isDeleted;
}

/** Retries a transaction that lost a deadlock or a serialization (P2034), as the API does. */
async function inTransaction(prisma, work) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await prisma.$transaction(work);
    } catch (error) {
      if (error?.code !== "P2034" || attempt === 5) {
        throw error;
      }
    }
  }
}

/** Moves 1.00 from one account to another; true when it completed, false when refused. */
export async function transfer({ prisma, Prisma, mysql }, from, to, key) {
  const fromId = Number(from);
  const toId = Number(to);
  const ids = [fromId, toId].sort((a, b) => a - b);
  return inTransaction(prisma, async (tx) => {
    const rows = await tx.$queryRaw`
      select id, user_id, type, currency, status, system_account, balance, created_at, updated_at
      from accounts where id in (${Prisma.join(ids)}) order by id for update`;
    const source = rows.find((row) => Number(row.id) === fromId);
    const target = rows.find((row) => Number(row.id) === toId);
    const ok =
      source.status === "active" &&
      target.status === "active" &&
      source.currency === target.currency &&
      (Boolean(source.system_account) || Number(source.balance) >= 1);
    const amount = new Prisma.Decimal("1.00");
    const data = {
      fromAccountId: fromId,
      toAccountId: toId,
      amount,
      idempotencyKey: key,
      status: ok ? "completed" : "failed",
      ...(ok ? {} : { failureCode: "INSUFFICIENT_FUNDS" }),
    };
    let claimed;
    if (mysql) {
      const { count } = await tx.transaction.createMany({ data: [data], skipDuplicates: true });
      claimed = count === 1 ? await tx.transaction.findUnique({ where: { idempotencyKey: key } }) : null;
    } else {
      [claimed] = await tx.transaction.createManyAndReturn({ data: [data], skipDuplicates: true });
    }
    if (!ok || !claimed) {
      return false;
    }
    await tx.ledger.createMany({
      data: [
        { accountId: fromId, transactionId: claimed.id, entryType: "debit", amount },
        { accountId: toId, transactionId: claimed.id, entryType: "credit", amount },
      ],
    });
    const cast = Prisma.sql`cast(${amount} as decimal(15, 2))`;
    await tx.$executeRaw`
      update accounts
      set balance = balance + case when id = ${fromId} then -${cast} else ${cast} end,
        updated_at = ${new Date()}
      where id in (${fromId}, ${toId}) and system_account = false`;
    return true;
  });
}

const PAGE = 20;
const iso = (date) => date?.toISOString() ?? null;

/** read_floor.mjs's answers through Prisma: the API's queries (its posts and users
 * repositories), in its answers' shape. */
export function reads({ prisma }) {
  const include = {
    author: { select: { name: true } },
    category: { select: { id: true, name: true, slug: true } },
    _count: { select: { likes: true } },
  };
  async function posts() {
    const where = { status: "published" };
    const [rows, total] = await Promise.all([
      prisma.post.findMany({ where, include, orderBy: [{ publishedAt: "desc" }, { id: "desc" }], skip: 0, take: PAGE }),
      prisma.post.count({ where }),
    ]);
    const data = rows.map((row) => ({
      _id: String(row.id),
      title: row.title,
      slug: row.slug,
      content: row.content ?? "",
      excerpt: row.excerpt,
      author: { _id: String(row.authorId), name: row.author.name },
      category: row.category && { _id: String(row.category.id), name: row.category.name, slug: row.category.slug },
      tags: row.tags ?? [],
      featuredImage: row.featuredImage,
      views: row.views,
      likeCount: row._count.likes,
      status: row.status,
      publishedAt: iso(row.publishedAt),
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
    }));
    return [200, { data, pagination: { page: 1, limit: PAGE, total, pages: Math.ceil(total / PAGE) } }];
  }
  async function me(claims) {
    if (!(await sessionIsActive({ prisma }, claims))) {
      return [401, { message: "the session has ended" }];
    }
    const user = await prisma.user.findUnique({ where: { id: Number(claims.sub) } });
    if (!user) {
      return [401, { message: "the session has ended" }];
    }
    const { id, name, email, avatar, role, isEmailVerified } = user;
    return [200, { user: { _id: String(id), name, email, avatar, role, isEmailVerified } }];
  }
  return { posts, me };
}
