import mongoose, { type Model, model, Schema, type Types } from "mongoose";
import {
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
  type AccountStatus,
  type AccountType,
  CURRENCIES,
  type Currency,
} from "../../shared/constants.js";

export interface IAccount {
  userId: Types.ObjectId;
  type: AccountType;
  currency: Currency;
  status: AccountStatus;
  systemAccount: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type AccountModel = Model<IAccount>;

export const accountSchema = new Schema<IAccount, AccountModel>(
  {
    userId: {
      type: Schema.Types.ObjectId,
      ref: "User",
      required: [true, "User ID is required"],
    },
    type: {
      type: String,
      enum: { values: ACCOUNT_TYPES, message: "{VALUE} is not a valid account type" },
      required: [true, "Account type is required"],
    },
    currency: {
      type: String,
      enum: { values: CURRENCIES, message: "{VALUE} is not a supported currency" },
      required: [true, "Currency is required"],
      default: "NPR",
    },
    status: {
      type: String,
      enum: { values: ACCOUNT_STATUSES, message: "{VALUE} is not a valid account status" },
      required: [true, "Account status is required"],
      default: "active",
    },
    // Set once at creation; hidden from default reads.
    systemAccount: { type: Boolean, default: false, immutable: true, select: false },
  },
  { timestamps: true },
);

accountSchema.index({ userId: 1 });
accountSchema.index({ status: 1 });
accountSchema.index({ type: 1 });

/** Reuses the compiled model when the module is evaluated again (watch mode, tests). */
export const Account =
  (mongoose.models.Account as AccountModel | undefined) ??
  model<IAccount, AccountModel>("Account", accountSchema);
