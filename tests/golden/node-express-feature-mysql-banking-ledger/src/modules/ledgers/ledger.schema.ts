import { sql } from "drizzle-orm";
import { check, decimal, index, int, mysqlEnum, mysqlTable } from "drizzle-orm/mysql-core";
import { LEDGER_ENTRY_TYPES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";
import { accounts } from "../accounts/account.schema.js";

/**
 * Ledger entries are immutable: `db:migrate` installs a trigger that rejects every UPDATE and
 * DELETE on this table. References restrict, so nothing cascades into the ledger either.
 */
export const ledgers = mysqlTable(
  "ledgers",
  {
    id: int("id").autoincrement().primaryKey(),
    accountId: int("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    // References transactions.id; the foreign key is added with the transaction model.
    transactionId: int("transaction_id").notNull(),
    entryType: mysqlEnum("entry_type", LEDGER_ENTRY_TYPES).notNull(),
    amount: decimal("amount", { precision: 15, scale: 2 }).notNull(),
    ...timestamps,
  },
  (table) => [
    index("ledgers_account_id_idx").on(table.accountId),
    index("ledgers_transaction_id_idx").on(table.transactionId),
    index("ledgers_entry_type_idx").on(table.entryType),
    check("ledgers_amount_positive", sql`${table.amount} > 0`),
  ],
);
