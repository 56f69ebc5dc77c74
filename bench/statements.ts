// Counts the SQL statements this process sends to the database. Every statement goes through
// pg's Client.query, whether Knex builds it or the runtime sends it itself (a named prepared
// statement, a BEGIN): counting there counts what a server really sends. A serving process the
// bench starts (bench/processes.ts) loads this module with --import and BENCH_METER_IPC=1, and
// answers the bench's "statements" message with its count over the IPC channel.
import pg from "pg";

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/** Statements sent since the process started. */
export const statementsSent = (): number => statements;

if (process.env.BENCH_METER_IPC === "1" && process.send) {
  process.on("message", (message) => {
    if (message === "statements") process.send!({ statements });
  });
  // The channel must not keep a server alive that its signals told to stop.
  process.channel?.unref();
}
