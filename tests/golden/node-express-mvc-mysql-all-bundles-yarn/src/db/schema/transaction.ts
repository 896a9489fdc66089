import { sql } from "drizzle-orm";
import {
  check,
  decimal,
  index,
  int,
  mysqlEnum,
  mysqlTable,
  uniqueIndex,
  varchar,
} from "drizzle-orm/mysql-core";
import { TRANSACTION_STATUSES } from "../../config/constants.js";
import { accounts } from "./account.js";
import { timestamps } from "./timestamps.js";

export const transactions = mysqlTable(
  "transactions",
  {
    id: int("id").autoincrement().primaryKey(),
    // Restrict: an account with transactions cannot be deleted.
    fromAccountId: int("from_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    toAccountId: int("to_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    amount: decimal("amount", { precision: 15, scale: 2 }).notNull(),
    status: mysqlEnum("status", TRANSACTION_STATUSES).notNull().default("pending"),
    idempotencyKey: varchar("idempotency_key", { length: 255 }).notNull(),
    ...timestamps,
  },
  (table) => [
    index("transactions_from_account_id_idx").on(table.fromAccountId),
    index("transactions_to_account_id_idx").on(table.toAccountId),
    index("transactions_status_idx").on(table.status),
    uniqueIndex("transactions_idempotency_key_unique").on(table.idempotencyKey),
    check("transactions_amount_positive", sql`${table.amount} > 0`),
    check("transactions_accounts_differ", sql`${table.fromAccountId} <> ${table.toAccountId}`),
  ],
);
