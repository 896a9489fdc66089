import { relations } from "drizzle-orm";
import { accounts } from "../../modules/accounts/account.schema.js";
import { ledgers } from "../../modules/ledgers/ledger.schema.js";

export const accountsRelations = relations(accounts, ({ many }) => ({
  ledgers: many(ledgers),
}));

export const ledgersRelations = relations(ledgers, ({ one }) => ({
  account: one(accounts, {
    fields: [ledgers.accountId],
    references: [accounts.id],
  }),
}));
