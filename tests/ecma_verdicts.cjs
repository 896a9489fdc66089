// ECMA-262 verdicts for the Python tests: what ajv (the validator behind VS Code-style
// tooling) and V8's RegExp say. Reads one JSON request per line, answers one JSON line:
//   {"schema": S, "data": D}   -> {"unicode": bool, "legacy": bool}: ajv's verdict with its
//                                 default `u` flag on patterns, and without it
//   {"pattern": P, "input": I} -> {"match": bool}: new RegExp(P, "u").test(I)
// Usage: node ecma_verdicts.cjs PATH/TO/node_modules/ajv
"use strict";
const readline = require("node:readline");
const Ajv = require(process.argv[2]).default;

const modes = {
  unicode: new Ajv({ allErrors: true, strict: false }),
  legacy: new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }),
};
const compiled = new Map();

function verdicts(schema, data) {
  const key = JSON.stringify(schema);
  if (!compiled.has(key)) {
    compiled.set(key, Object.fromEntries(Object.entries(modes).map(([name, ajv]) => [name, ajv.compile(schema)])));
  }
  const validators = compiled.get(key);
  return Object.fromEntries(Object.entries(validators).map(([name, validate]) => [name, validate(data)]));
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let answer;
  try {
    const request = JSON.parse(line);
    answer = "schema" in request
      ? verdicts(request.schema, request.data)
      : { match: new RegExp(request.pattern, "u").test(request.input) };
  } catch (error) {
    answer = { error: String(error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
