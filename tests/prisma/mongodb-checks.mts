// The MongoDB Prisma project's own logic, without a MongoDB server (there is none here) and
// without Prisma 6's native query engine (it cannot be downloaded here).
// usage (in the project, with tsx): tsx mongodb-checks.mts <database.ts> <indexes.ts> <constants.ts>
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const load = (file: string) => import(pathToFileURL(resolve(file)).href);
const [databaseModule, indexesModule, constantsModule] = process.argv.slice(2);
const { createDatabase } = await load(databaseModule);
const { createIndexes } = await load(indexesModule);
const constants = await load(constantsModule);

const report: Record<string, unknown> = {};
const sent: unknown[] = [];
await createIndexes(async (command: unknown) => sent.push(command));
report.commands = sent;
report.ttl = {
  sessions: constants.SESSION_TTL_SECONDS,
  refreshtokens: constants.REFRESH_TOKEN_TTL_SECONDS,
  otps: constants.OTP_TTL_SECONDS,
};

const { db } = createDatabase("mongodb://127.0.0.1:1/app");
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "succeeded";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}
report.update = await outcome(() => db.ledger.update({ where: { id: "000000000000000000000000" }, data: { amount: 1 } }));
report.deleteMany = await outcome(() => db.ledger.deleteMany({}));
report.upsert = await outcome(() =>
  db.ledger.upsert({ where: { id: "000000000000000000000000" }, create: {}, update: {} }),
);
report.findMany = await outcome(() => db.ledger.findMany());
report.message = constants.LEDGER_IMMUTABLE_MESSAGE;
console.log(JSON.stringify(report));
process.exit(0);
