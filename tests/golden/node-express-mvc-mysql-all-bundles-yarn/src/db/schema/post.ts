import {
  datetime,
  index,
  int,
  json,
  mysqlEnum,
  mysqlTable,
  text,
  uniqueIndex,
  varchar,
} from "drizzle-orm/mysql-core";
import { POST_STATUSES } from "../../config/constants.js";
import { categories } from "./category.js";
import { timestamps } from "./timestamps.js";
import { users } from "./user.js";

/** An uploaded image: `url` is required, the storage id and size are optional. */
export type PostFeaturedImage = { public_id?: string; url: string; size?: number };

export const posts = mysqlTable(
  "posts",
  {
    id: int("id").autoincrement().primaryKey(),
    title: varchar("title", { length: 100 }).notNull(),
    slug: varchar("slug", { length: 255 }).notNull(),
    content: text("content"),
    excerpt: text("excerpt"),
    // Deleting the author deletes the post.
    authorId: int("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // References categories (not users); a category that has posts cannot be deleted.
    categoryId: int("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    tags: json("tags").$type<string[]>(),
    featuredImage: json("featured_image").$type<PostFeaturedImage>(),
    views: int("views").notNull().default(0),
    status: mysqlEnum("status", POST_STATUSES).notNull().default("draft"),
    publishedAt: datetime("published_at"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("posts_author_id_slug_unique").on(table.authorId, table.slug),
    uniqueIndex("posts_slug_unique").on(table.slug),
    index("posts_category_id_idx").on(table.categoryId),
    index("posts_status_idx").on(table.status),
  ],
);
