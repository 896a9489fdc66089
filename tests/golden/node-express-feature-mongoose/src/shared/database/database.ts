import mongoose from "mongoose";

const options = { serverSelectionTimeoutMS: 2_000 };

/** The shared Mongoose connection; ping() backs GET /health/ready. */
export function createDatabase(url: string) {
  // Connect in the background: the server starts, and readiness reports the state.
  mongoose.connect(url, options).catch((error: Error) => {
    console.error("MongoDB connection failed:", error.message);
  });
  return {
    db: mongoose.connection,
    async ping(): Promise<void> {
      if (mongoose.connection.readyState !== mongoose.ConnectionStates.connected) {
        await mongoose.connect(url, options);
      }
      await mongoose.connection.db?.admin().ping();
    },
    async close(): Promise<void> {
      await mongoose.disconnect();
    },
  };
}

export type Database = ReturnType<typeof createDatabase>;
