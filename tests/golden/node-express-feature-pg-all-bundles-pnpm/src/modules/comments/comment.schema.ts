import { foreignKey, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "../../shared/database/timestamps.js";
import { posts } from "../posts/post.schema.js";
import { users } from "../users/user.schema.js";

export const comments = pgTable(
  "comments",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    // Deleting the post deletes its comments.
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    // Deleting the author deletes their comments.
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    parentCommentId: integer("parent_comment_id"),
    ...timestamps,
  },
  (table) => [
    // Replies outlive a deleted parent as top-level comments (set null): no cascade chain, so
    // deleting a deeply nested thread never hits InnoDB's 15-level cascade limit either.
    foreignKey({
      name: "comments_parent_comment_id_comments_id_fk",
      columns: [table.parentCommentId],
      foreignColumns: [table.id],
    }).onDelete("set null"),
    index("comments_post_id_idx").on(table.postId),
    index("comments_author_id_idx").on(table.authorId),
    index("comments_parent_comment_id_idx").on(table.parentCommentId),
  ],
);
