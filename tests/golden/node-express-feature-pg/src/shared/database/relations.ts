import { relations } from "drizzle-orm";
import { refreshTokens } from "../../modules/auth/refresh-token.schema.js";
import { sessions } from "../../modules/auth/session.schema.js";
import { users } from "../../modules/users/user.schema.js";

export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(sessions),
  refreshTokens: many(refreshTokens),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, {
    fields: [sessions.userId],
    references: [users.id],
  }),
}));

export const refreshTokensRelations = relations(refreshTokens, ({ one }) => ({
  user: one(users, {
    fields: [refreshTokens.userId],
    references: [users.id],
  }),
}));
