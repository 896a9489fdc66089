import {
  boolean,
  datetime,
  index,
  int,
  json,
  mysqlEnum,
  mysqlTable,
  uniqueIndex,
  varchar,
} from "drizzle-orm/mysql-core";
import { AUTH_PROVIDERS, USER_ROLES } from "../../config/constants.js";
import { timestamps } from "./timestamps.js";

/** An uploaded image: `url` is required, the storage id and size are optional. */
export type UserAvatar = { public_id?: string; url: string; size?: number };

export const users = mysqlTable(
  "users",
  {
    id: int("id").autoincrement().primaryKey(),
    name: varchar("name", { length: 100 }).notNull(),
    email: varchar("email", { length: 255 }).notNull(),
    password: varchar("password", { length: 255 }),
    role: mysqlEnum("role", USER_ROLES).notNull().default("user"),
    provider: mysqlEnum("provider", AUTH_PROVIDERS).notNull().default("local"),
    providerId: varchar("provider_id", { length: 255 }),
    avatar: json("avatar").$type<UserAvatar>(),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    lastLoginAt: datetime("last_login_at"),
    failedLoginAttempts: int("failed_login_attempts").notNull().default(0),
    lockUntil: datetime("lock_until"),
    isDeleted: boolean("is_deleted").notNull().default(false),
    deletedAt: datetime("deleted_at"),
    reActivateAvailableAt: datetime("re_activate_available_at"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("users_email_unique").on(table.email),
    index("users_role_idx").on(table.role),
    index("users_is_deleted_idx").on(table.isDeleted),
    index("users_provider_provider_id_idx").on(table.provider, table.providerId),
  ],
);
