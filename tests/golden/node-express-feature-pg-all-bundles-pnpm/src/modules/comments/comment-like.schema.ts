import { index, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { timestamps } from "../../shared/database/timestamps.js";
import { users } from "../users/user.schema.js";
import { comments } from "./comment.schema.js";

/** One like of a comment by a user: no id, the (userId, commentId) pair is the primary key. */
export const commentLikes = pgTable(
  "comment_likes",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [
    primaryKey({
      name: "comment_likes_user_id_comment_id_pk",
      columns: [table.userId, table.commentId],
    }),
    index("comment_likes_comment_id_idx").on(table.commentId),
  ],
);
