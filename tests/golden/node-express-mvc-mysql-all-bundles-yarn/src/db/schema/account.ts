import { boolean, index, int, mysqlEnum, mysqlTable } from "drizzle-orm/mysql-core";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, CURRENCIES } from "../../config/constants.js";
import { timestamps } from "./timestamps.js";
import { users } from "./user.js";

export const accounts = mysqlTable(
  "accounts",
  {
    id: int("id").autoincrement().primaryKey(),
    // Restrict: a user with accounts cannot be deleted (money never disappears by cascade).
    userId: int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    type: mysqlEnum("type", ACCOUNT_TYPES).notNull(),
    currency: mysqlEnum("currency", CURRENCIES).notNull().default("NPR"),
    status: mysqlEnum("status", ACCOUNT_STATUSES).notNull().default("active"),
    systemAccount: boolean("system_account").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index("accounts_user_id_idx").on(table.userId),
    index("accounts_status_idx").on(table.status),
    index("accounts_type_idx").on(table.type),
  ],
);
