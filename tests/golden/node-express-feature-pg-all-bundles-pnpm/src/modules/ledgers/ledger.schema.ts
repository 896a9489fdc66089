import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgEnum, pgTable } from "drizzle-orm/pg-core";
import { LEDGER_ENTRY_TYPES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";
import { accounts } from "../accounts/account.schema.js";
import { transactions } from "../transactions/transaction.schema.js";

export const ledgerEntryTypeEnum = pgEnum("ledger_entry_type", LEDGER_ENTRY_TYPES);

/**
 * Ledger entries are immutable: `db:migrate` installs a trigger that rejects every UPDATE and
 * DELETE on this table. References restrict, so nothing cascades into the ledger either.
 */
export const ledgers = pgTable(
  "ledgers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "restrict" }),
    transactionId: integer("transaction_id")
      .notNull()
      .references(() => transactions.id, { onDelete: "restrict" }),
    entryType: ledgerEntryTypeEnum("entry_type").notNull(),
    amount: numeric("amount", { precision: 15, scale: 2 }).notNull(),
    ...timestamps,
  },
  (table) => [
    index("ledgers_account_id_idx").on(table.accountId),
    index("ledgers_transaction_id_idx").on(table.transactionId),
    index("ledgers_entry_type_idx").on(table.entryType),
    check("ledgers_amount_positive", sql`${table.amount} > 0`),
  ],
);
