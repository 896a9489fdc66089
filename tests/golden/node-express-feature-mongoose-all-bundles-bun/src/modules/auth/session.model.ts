import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import { SESSION_TTL_SECONDS } from "../../shared/constants.js";

export interface ISession {
  userId: Types.ObjectId;
  tokenHash: string;
  ip?: string;
  userAgent?: string;
  isActive: boolean;
  lastUsedAt: Date;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type SessionModel = Model<ISession>;

export const sessionSchema = new Schema<ISession, SessionModel>(
  {
    userId: {
      type: Schema.Types.ObjectId,
      ref: "User",
      required: [true, "User ID is required"],
    },
    tokenHash: {
      type: String,
      required: [true, "Token hash is required"],
      maxlength: [255, "Token hash cannot exceed 255 characters"],
    },
    ip: { type: String, maxlength: [45, "IP address cannot exceed 45 characters"] },
    userAgent: { type: String, maxlength: [512, "User agent cannot exceed 512 characters"] },
    isActive: { type: Boolean, default: true },
    lastUsedAt: { type: Date, default: Date.now },
    expiresAt: { type: Date, required: [true, "Expiration time is required"] },
  },
  { timestamps: true },
);

sessionSchema.index({ tokenHash: 1 }, { unique: true });
sessionSchema.index({ isActive: 1 });
sessionSchema.index({ userId: 1 });
sessionSchema.index({ userId: 1, isActive: 1 });
sessionSchema.index({ userId: 1, lastUsedAt: -1 });
// Sessions are removed automatically 7 days after creation.
sessionSchema.index({ createdAt: 1 }, { expireAfterSeconds: SESSION_TTL_SECONDS });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Session =
  (mongoose.models.Session as SessionModel | undefined) ??
  model<ISession, SessionModel>("Session", sessionSchema);
