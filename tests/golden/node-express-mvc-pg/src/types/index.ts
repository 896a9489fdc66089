import type { UserRole } from "../config/constants.js";

/** What authentication attaches to a request. */
export interface AuthRequestContext {
  user?: {
    _id?: string;
    role?: UserRole;
  };
}

export interface Avatar {
  public_id?: string;
  url: string;
  size?: number;
}

export interface AccountSummary {
  _id: string;
  type: string;
  currency: string;
  status: string;
  createdAt?: string;
  updatedAt?: string;
}

/** The user as the API shows it. */
export interface UserProfile {
  _id: string;
  name: string;
  email: string;
  avatar?: Avatar | null;
  role: UserRole;
  isEmailVerified: boolean;
  accounts?: AccountSummary[];
}

/** Page information of a paginated list. */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}
