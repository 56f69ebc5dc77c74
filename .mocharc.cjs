// mocha's settings for `make test`. Files run in parallel worker processes, one per core and
// at least two: the suite is CPU-bound (the embedded database runs in each worker), and mocha's
// own default (cores - 1) would leave a 2-core machine running one file at a time.
const { availableParallelism } = require("node:os");

module.exports = {
  "node-option": ["import=tsx"],
  spec: [
    "test/conformance/**/*.test.ts",
    "test/e2e/**/*.test.ts",
    "test/golden/**/*.test.ts",
    "test/unit/**/*.test.ts",
  ],
  parallel: true,
  jobs: Math.max(2, availableParallelism()),
  timeout: 120000,
  exit: true,
  require: ["test/support/hooks.ts"],
};
