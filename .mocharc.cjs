// mocha's settings for `make test`. Files run in parallel worker processes, one per core and
// at least two: the suite is CPU-bound (the embedded database runs in each worker), and mocha's
// own default (cores - 1) would leave a 2-core machine running one file at a time.
const { availableParallelism } = require("node:os");
const { readdirSync } = require("node:fs");
const { join } = require("node:path");

/** Every `*.test.ts` under `dir`, in code-point order of their paths. */
function testFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// Workers take files in the order given, each the next one as it finishes the last. A long file
// started near the end holds one worker while the other has nothing left (on two cores, the
// whole end of the run on one): so the files that take longest go first, longest first, and
// the many short ones fill in behind them. Measured per file on a 2-core machine (wall, with
// the processes a file starts: TEST_TIMINGS=FILE, test/support/hooks.ts); a file missing here
// just runs in its folder's turn.
const longestFirst = [
  // PostgreSQL's pass only (they skip at once on the embedded engine): clusters of their own.
  "test/e2e/replicas.test.ts", // a cluster of its own, a streaming replica of it (pg_basebackup), two instances reading
  "test/e2e/instances.test.ts", // several serving processes on one database
  "test/e2e/process.test.ts", // a dozen server processes, the build under plain node
  "test/e2e/cli.test.ts", // `make run` on a fresh data directory, its idle memory, then the built command line
  "test/e2e/dump-load.test.ts", // dump and load through PostgreSQL and back, as processes
  "test/e2e/browser.test.ts", // Chromium laying out the inventory's megabyte document in Swagger UI
  "test/conformance/sessions.test.ts", // every recorded exchange against its version's document (ajv)
  "test/conformance/drf-0.test.ts",
  "test/e2e/inventory/csv.test.ts", // 100,000 rows out, 10,000 in
  "test/conformance/drf-2.test.ts",
  "test/e2e/operator-commands.test.ts",
  "test/e2e/database-outage.test.ts", // PostgreSQL's pass only: its server stopped and started again
  "test/golden/determinism.test.ts", // `check` on the real spec, twice
  "test/e2e/plan-modes.test.ts", // pg_prepared_statements' plan counts for each mode, on databases of its own
  "test/e2e/inventory/permissions.test.ts",
  "test/e2e/serving-memory.test.ts", // the built server under a counted load of lists of 1,000
  "test/e2e/inventory/json-pass-through.test.ts", // both read paths for every model and version
  "test/conformance/drf-3.test.ts",
  "test/conformance/drf-1.test.ts",
  "test/e2e/git-repositories.test.ts",
  "test/e2e/dynamic-groups.test.ts",
  "test/e2e/clients/typed-client.test.ts", // tsc --strict over the example
  "test/e2e/metrics.test.ts",
  "test/golden/openapi-documents.test.ts",
  "test/e2e/inventory/prism.test.ts", // Prism's own process
];

// Files whose outcome cannot depend on DATABASE_URL, left out when it is set (CI's second pass,
// on PostgreSQL): they ran in the first pass and would only repeat it. The generator's golden
// tests open no database; the command line's first run is the embedded database's by
// definition; dump and load go from the embedded database through PostgreSQL and back in
// either pass; the recorded sessions are checked against the documents with no server.
const samePerEngine = ["test/golden", "test/e2e/cli.test.ts", "test/e2e/dump-load.test.ts", "test/conformance/sessions.test.ts"];
const perEngine = (file) => !process.env.DATABASE_URL || !samePerEngine.some((p) => file === p || file.startsWith(`${p}/`));

const all = ["test/conformance", "test/e2e", "test/golden", "test/unit"].flatMap(testFiles).filter(perEngine);

module.exports = {
  "node-option": ["import=tsx"],
  spec: [...longestFirst.filter((f) => all.includes(f)), ...all.filter((f) => !longestFirst.includes(f))],
  parallel: true,
  jobs: Math.max(2, availableParallelism()),
  timeout: 120000,
  exit: true,
  require: ["test/support/hooks.ts"],
};
