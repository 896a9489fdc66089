import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import { REFRESH_TOKEN_TTL_SECONDS } from "../../shared/constants.js";

export interface IRefreshToken {
  userId: Types.ObjectId;
  tokenHash: string;
  expiresAt: Date;
  isRevoked: boolean;
  revokedAt?: Date;
  replacedByTokenHash?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type RefreshTokenModel = Model<IRefreshToken>;

export const refreshTokenSchema = new Schema<IRefreshToken, RefreshTokenModel>(
  {
    userId: {
      type: Schema.Types.ObjectId,
      ref: "User",
      required: [true, "User ID is required"],
    },
    tokenHash: { type: String, required: [true, "Token hash is required"], select: false },
    expiresAt: { type: Date, required: [true, "Expiration time is required"] },
    isRevoked: { type: Boolean, default: false },
    revokedAt: { type: Date },
    replacedByTokenHash: {
      type: String,
      maxlength: [255, "Replacement token hash cannot exceed 255 characters"],
      select: false,
    },
  },
  { timestamps: true },
);

refreshTokenSchema.index({ userId: 1 });
refreshTokenSchema.index({ tokenHash: 1 });
refreshTokenSchema.index({ isRevoked: 1 });
// Refresh tokens are removed automatically 7 days after creation.
refreshTokenSchema.index({ createdAt: 1 }, { expireAfterSeconds: REFRESH_TOKEN_TTL_SECONDS });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const RefreshToken =
  (mongoose.models.RefreshToken as RefreshTokenModel | undefined) ??
  model<IRefreshToken, RefreshTokenModel>("RefreshToken", refreshTokenSchema);
