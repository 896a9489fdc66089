import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  numeric,
  pgEnum,
  pgTable,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { TRANSACTION_STATUSES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";
import { accounts } from "../accounts/account.schema.js";

export const transactionStatusEnum = pgEnum("transaction_status", TRANSACTION_STATUSES);

export const transactions = pgTable(
  "transactions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // Restrict: an account with transactions cannot be deleted.
    fromAccountId: integer("from_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    toAccountId: integer("to_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    amount: numeric("amount", { precision: 15, scale: 2 }).notNull(),
    status: transactionStatusEnum("status").notNull().default("pending"),
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
