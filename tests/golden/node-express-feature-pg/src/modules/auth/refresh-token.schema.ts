import { boolean, index, integer, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { timestamps } from "../../shared/database/timestamps.js";
import { users } from "../users/user.schema.js";

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // Deleting the user deletes its refresh tokens.
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    isRevoked: boolean("is_revoked").notNull().default(false),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
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
