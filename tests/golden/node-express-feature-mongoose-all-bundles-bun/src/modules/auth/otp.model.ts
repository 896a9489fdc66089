import mongoose, { type Model, model, Schema } from "mongoose";
import { OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS, OTP_TYPES } from "../../shared/constants.js";

export interface IOtp {
  email: string;
  otpHashCode: string;
  nextResendAllowedAt: Date;
  type: (typeof OTP_TYPES)[number];
  expiresAt: Date;
  isUsed: boolean;
  usedAt?: Date;
  attempts: number;
  maxAttempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export type OtpModel = Model<IOtp>;

export const otpSchema = new Schema<IOtp, OtpModel>(
  {
    email: {
      type: String,
      required: [true, "Email is required"],
      lowercase: true,
      trim: true,
      maxlength: [255, "Email cannot exceed 255 characters"],
    },
    otpHashCode: {
      type: String,
      required: [true, "OTP hash code is required"],
      maxlength: [255, "OTP hash code cannot exceed 255 characters"],
      select: false,
    },
    nextResendAllowedAt: { type: Date, required: [true, "Next resend allowed at is required"] },
    type: {
      type: String,
      enum: { values: OTP_TYPES, message: "{VALUE} is not a valid OTP type" },
      required: [true, "OTP type is required"],
    },
    expiresAt: { type: Date, required: [true, "Expiration time is required"] },
    isUsed: { type: Boolean, default: false },
    usedAt: { type: Date },
    attempts: { type: Number, default: 0 },
    maxAttempts: { type: Number, default: OTP_MAX_ATTEMPTS },
  },
  { timestamps: true },
);

otpSchema.index({ email: 1, type: 1 });
// One-time codes are removed automatically 5 minutes after creation.
otpSchema.index({ createdAt: 1 }, { expireAfterSeconds: OTP_TTL_SECONDS });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Otp =
  (mongoose.models.Otp as OtpModel | undefined) ?? model<IOtp, OtpModel>("Otp", otpSchema);
