// Counts the SQL statements this process sends to the database, and the round trips that
// carry them. Every statement goes through pg's Client.query, whether Knex builds it or the
// runtime sends it itself (a named prepared statement, a BEGIN): counting there counts what a
// server really sends. A socket write of a connection carrying statements is a round trip:
// what the request does next waits for their answers, while statements written together
// (pipelined) wait once. The embedded engine has no socket: it counts statements, no trips.
// A serving process the bench starts (bench/processes.ts) loads this module with --import and
// BENCH_METER_IPC=1, and answers the bench's "statements" message with its counts over the
// IPC channel.
import net from "node:net";
import pg from "pg";

/** What this process sent the database since it started. */
export interface Sent {
  statements: number;
  roundTrips: number;
}

const sent: Sent = { statements: 0, roundTrips: 0 };
/** Statements each connection's socket was given since it last wrote. */
const unwritten = new WeakMap<object, number>();

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  sent.statements++;
  const stream = (this as unknown as { connection?: { stream?: object } }).connection?.stream;
  if (stream) unwritten.set(stream, (unwritten.get(stream) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const socket = net.Socket.prototype as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
for (const name of ["_write", "_writev"] as const) {
  const write = socket[name];
  socket[name] = function (this: object, ...args: unknown[]) {
    if (unwritten.get(this)) {
      sent.roundTrips++;
      unwritten.set(this, 0);
    }
    return write.apply(this, args);
  };
}

/** Statements and round trips since the process started. */
export const sentSoFar = (): Sent => ({ ...sent });

if (process.env.BENCH_METER_IPC === "1" && process.send) {
  process.on("message", (message) => {
    if (message === "statements") process.send!(sentSoFar());
  });
  // The channel must not keep a server alive that its signals told to stop.
  process.channel?.unref();
}
