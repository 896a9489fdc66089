// A Prisma schema folder's DMMF datamodel (models, fields, native types, defaults, indexes,
// relations), from prisma-fmt's WASM build: no engine, no database.
// usage: node dmmf.cjs <tools node_modules> <schema folder>
const { readdirSync, readFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

const [tools, folder] = process.argv.slice(2).map((arg) => resolve(arg));
const { get_dmmf } = require(join(tools, "@prisma/prisma-schema-wasm"));
const files = readdirSync(folder)
  .filter((file) => file.endsWith(".prisma"))
  .sort()
  .map((file) => [join(folder, file), readFileSync(join(folder, file), "utf8")]);
process.stdout.write(JSON.stringify(JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: files }))).datamodel));
