import { relations } from "drizzle-orm";
import { accounts } from "../../modules/accounts/account.schema.js";
import { refreshTokens } from "../../modules/auth/refresh-token.schema.js";
import { sessions } from "../../modules/auth/session.schema.js";
import { categories } from "../../modules/categories/category.schema.js";
import { comments } from "../../modules/comments/comment.schema.js";
import { commentLikes } from "../../modules/comments/comment-like.schema.js";
import { ledgers } from "../../modules/ledgers/ledger.schema.js";
import { posts } from "../../modules/posts/post.schema.js";
import { postLikes } from "../../modules/posts/post-like.schema.js";
import { transactions } from "../../modules/transactions/transaction.schema.js";
import { users } from "../../modules/users/user.schema.js";

export const usersRelations = relations(users, ({ many }) => ({
  sessions: many(sessions),
  refreshTokens: many(refreshTokens),
  accounts: many(accounts),
  posts: many(posts),
  comments: many(comments),
  postLikes: many(postLikes),
  commentLikes: many(commentLikes),
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

export const accountsRelations = relations(accounts, ({ one, many }) => ({
  user: one(users, {
    fields: [accounts.userId],
    references: [users.id],
  }),
  outgoingTransactions: many(transactions, { relationName: "transactionFromAccount" }),
  incomingTransactions: many(transactions, { relationName: "transactionToAccount" }),
  ledgers: many(ledgers),
}));

export const transactionsRelations = relations(transactions, ({ one, many }) => ({
  fromAccount: one(accounts, {
    fields: [transactions.fromAccountId],
    references: [accounts.id],
    relationName: "transactionFromAccount",
  }),
  toAccount: one(accounts, {
    fields: [transactions.toAccountId],
    references: [accounts.id],
    relationName: "transactionToAccount",
  }),
  ledgers: many(ledgers),
}));

export const ledgersRelations = relations(ledgers, ({ one }) => ({
  account: one(accounts, {
    fields: [ledgers.accountId],
    references: [accounts.id],
  }),
  transaction: one(transactions, {
    fields: [ledgers.transactionId],
    references: [transactions.id],
  }),
}));

export const categoriesRelations = relations(categories, ({ many }) => ({
  posts: many(posts),
}));

export const postsRelations = relations(posts, ({ one, many }) => ({
  author: one(users, {
    fields: [posts.authorId],
    references: [users.id],
  }),
  category: one(categories, {
    fields: [posts.categoryId],
    references: [categories.id],
  }),
  comments: many(comments),
  likes: many(postLikes),
}));

export const commentsRelations = relations(comments, ({ one, many }) => ({
  post: one(posts, {
    fields: [comments.postId],
    references: [posts.id],
  }),
  author: one(users, {
    fields: [comments.authorId],
    references: [users.id],
  }),
  parentComment: one(comments, {
    fields: [comments.parentCommentId],
    references: [comments.id],
    relationName: "commentReplies",
  }),
  replies: many(comments, { relationName: "commentReplies" }),
  likes: many(commentLikes),
}));

export const postLikesRelations = relations(postLikes, ({ one }) => ({
  user: one(users, {
    fields: [postLikes.userId],
    references: [users.id],
  }),
  post: one(posts, {
    fields: [postLikes.postId],
    references: [posts.id],
  }),
}));

export const commentLikesRelations = relations(commentLikes, ({ one }) => ({
  user: one(users, {
    fields: [commentLikes.userId],
    references: [users.id],
  }),
  comment: one(comments, {
    fields: [commentLikes.commentId],
    references: [comments.id],
  }),
}));
