import { boolean, index, integer, pgEnum, pgTable } from "drizzle-orm/pg-core";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, CURRENCIES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";
import { users } from "../users/user.schema.js";

export const accountTypeEnum = pgEnum("account_type", ACCOUNT_TYPES);
export const accountCurrencyEnum = pgEnum("account_currency", CURRENCIES);
export const accountStatusEnum = pgEnum("account_status", ACCOUNT_STATUSES);

export const accounts = pgTable(
  "accounts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // Restrict: a user with accounts cannot be deleted (money never disappears by cascade).
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    type: accountTypeEnum("type").notNull().default("savings"),
    currency: accountCurrencyEnum("currency").notNull().default("NPR"),
    status: accountStatusEnum("status").notNull().default("active"),
    systemAccount: boolean("system_account").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index("accounts_user_id_idx").on(table.userId),
    index("accounts_status_idx").on(table.status),
    index("accounts_type_idx").on(table.type),
  ],
);
