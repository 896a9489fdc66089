import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { POST_STATUSES } from "../../shared/constants.js";
import { timestamps } from "../../shared/database/timestamps.js";
import { categories } from "../categories/category.schema.js";
import { users } from "../users/user.schema.js";

export const postStatusEnum = pgEnum("post_status", POST_STATUSES);

/** An uploaded image: `url` is required, the storage id and size are optional. */
export type PostFeaturedImage = { public_id?: string; url: string; size?: number };

export const posts = pgTable(
  "posts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: varchar("title", { length: 100 }).notNull(),
    slug: varchar("slug", { length: 255 }).notNull(),
    content: text("content"),
    excerpt: text("excerpt"),
    // Deleting the author deletes the post.
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // References categories (not users); a category that has posts cannot be deleted.
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    tags: text("tags").array(),
    featuredImage: jsonb("featured_image").$type<PostFeaturedImage>(),
    views: integer("views").notNull().default(0),
    status: postStatusEnum("status").notNull().default("draft"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("posts_author_id_slug_unique").on(table.authorId, table.slug),
    uniqueIndex("posts_slug_unique").on(table.slug),
    index("posts_category_id_idx").on(table.categoryId),
    index("posts_status_idx").on(table.status),
  ],
);
