import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { AUTH_PROVIDERS, USER_ROLES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";

export const userRoleEnum = pgEnum("user_role", USER_ROLES);
export const authProviderEnum = pgEnum("auth_provider", AUTH_PROVIDERS);

/** An uploaded image: `url` is required, the storage id and size are optional. */
export type UserAvatar = { public_id?: string; url: string; size?: number };

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: varchar("name", { length: 100 }).notNull(),
    email: varchar("email", { length: 255 }).notNull(),
    password: varchar("password", { length: 255 }),
    role: userRoleEnum("role").notNull().default("user"),
    provider: authProviderEnum("provider").notNull().default("local"),
    providerId: varchar("provider_id", { length: 255 }),
    avatar: jsonb("avatar").$type<UserAvatar>(),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    failedLoginAttempts: integer("failed_login_attempts").notNull().default(0),
    lockUntil: timestamp("lock_until", { withTimezone: true }),
    isDeleted: boolean("is_deleted").notNull().default(false),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    reActivateAvailableAt: timestamp("re_activate_available_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("users_email_unique").on(table.email),
    index("users_role_idx").on(table.role),
    index("users_is_deleted_idx").on(table.isDeleted),
    index("users_provider_provider_id_idx").on(table.provider, table.providerId),
  ],
);
