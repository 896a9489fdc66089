import { boolean, datetime, index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./timestamps.js";
import { users } from "./user.js";

export const refreshTokens = mysqlTable(
  "refresh_tokens",
  {
    id: int("id").autoincrement().primaryKey(),
    // Deleting the user deletes its refresh tokens.
    userId: int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // TEXT in the spec; varchar here because it is indexed (MySQL cannot index TEXT fully).
    tokenHash: varchar("token_hash", { length: 512 }).notNull(),
    expiresAt: datetime("expires_at").notNull(),
    isRevoked: boolean("is_revoked").notNull().default(false),
    revokedAt: datetime("revoked_at"),
    replacedByTokenHash: varchar("replaced_by_token_hash", { length: 255 }),
    ...timestamps,
  },
  (table) => [
    index("refresh_tokens_user_id_idx").on(table.userId),
    index("refresh_tokens_token_hash_idx").on(table.tokenHash),
    index("refresh_tokens_is_revoked_idx").on(table.isRevoked),
    index("refresh_tokens_expires_at_idx").on(table.expiresAt),
  ],
);
