// Where reads go on PostgreSQL: to a streaming replica when one is close enough behind the
// primary, else to the primary, through pools whose statements are bounded by the read
// statement timeout. Writes, reads inside a write, the queue and the scheduler never come
// here: they use the primary's own pool.
//
// Read-your-writes holds across instances: after each commit, the writer's position in the
// primary's WAL is kept in `armature_read_positions` on the primary, which every instance
// reads; an authenticated reader is sent to a replica only once that replica has replayed past
// the reader's own last write. Anonymous readers (who write nothing) read any replica that lags
// at most `maxLagMs`. What a replica has replayed, and how far behind it is, comes from a poll
// every POLL_MS: a replica's replay position only grows, so the polled value is a safe lower
// bound for the routing decision.
//
// A replica that fails (refuses connections, or drops one under a statement) is taken out at
// once and the statement runs again on the primary, so a reader sees no error; the poll brings
// the replica back once it answers and has caught up. A statement the replica cancels for a
// conflict with its replay runs again on the primary too, the replica staying in.
import type { Knex } from "knex";
import pg from "pg";
import { databaseUnavailable, recoveryConflict } from "./errors.js";

/** How often each instance asks the primary and the replicas where they are. */
const POLL_MS = 200;

/** Who reads or wrote: the user, or nobody (an anonymous request, a system operation). */
export interface Reader {
  userId: string | null;
}

/** How an instance's reads are routed (on PostgreSQL; the embedded engine has none). */
export interface ReadRouting {
  /** The pool `reader`'s next reads go to. */
  readsFor(reader: Reader): Promise<Knex>;
  /** After a commit: the writers' positions, so that their next reads see it through any instance. */
  wrote(userIds: Iterable<string>): Promise<void>;
  /** Stops polling and closes the pools it opened. */
  close(): Promise<void>;
  /** The pools it opened, whose connections in use and waiting the metrics count with the primary's. */
  pools(): Knex[];
}

const routings = new WeakMap<object, ReadRouting>();

/** The routing of reads made on the primary's pool `db`; none for a transaction or the embedded engine. */
export function readRouting(db: object): ReadRouting | undefined {
  return routings.get(db);
}

export function routeReads(primary: Knex, routing: ReadRouting): void {
  routings.set(primary, routing);
}

/** An LSN (`16/B374D848`) as a number that compares. */
export function lsnValue(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export interface ReplicaSettings {
  urls: string[];
  poolSize: number;
  maxLagMs: number;
}

/** A client class made from knex's, for one pool. */
export type ClientWrapper = (base: typeof Knex.Client) => typeof Knex.Client;
/** Opens a read pool on `url` (its connections bounded by the read statement timeout). */
export type PoolFactory = (url: string, poolSize: number, wrap: ClientWrapper) => Knex;

interface Replica {
  /** The URL without its password, for logs. */
  name: string;
  pool: Knex;
  /** A connection of its own for the poll, so polling never waits behind reads. */
  probe: pg.Pool;
  up: boolean;
  /** The WAL position it has replayed, when last polled. */
  replayed: bigint | null;
  /** The latest time (ms) at which the primary's WAL was wholly replayed by it. */
  caughtUpAt: number;
}

export class ReplicaRouting implements ReadRouting {
  private readonly replicas: Replica[];
  private readonly primaryProbe: pg.Pool;
  /** The primary's WAL position over the last moments: how a replica's lag is measured. */
  private samples: Array<{ at: number; lsn: bigint }> = [];
  private next = 0;
  private timer: NodeJS.Timeout;
  private polling: Promise<void> | undefined;

  constructor(private readonly primary: Knex, private readonly primaryReads: Knex, primaryUrl: string, private readonly settings: ReplicaSettings, pool: PoolFactory, private readonly log: (line: string) => void = console.warn) {
    this.primaryProbe = probePool(primaryUrl);
    this.replicas = settings.urls.map((url) => {
      const replica: Replica = { name: redact(url), pool: undefined as unknown as Knex, probe: probePool(url), up: false, replayed: null, caughtUpAt: 0 };
      const down = () => {
        if (replica.up) this.log(`Read replica ${replica.name} failed: its reads go to the primary until it answers again.`);
        replica.up = false;
      };
      replica.pool = pool(url, settings.poolSize, failingOver(primaryReads, () => replica.up, down));
      return replica;
    });
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  async readsFor(reader: Reader): Promise<Knex> {
    const now = Date.now();
    const ready = this.replicas.filter((r) => r.up && r.replayed !== null && now - r.caughtUpAt <= this.settings.maxLagMs);
    if (!ready.length) return this.primaryReads;
    let needed: bigint | undefined;
    if (reader.userId !== null) {
      const row = await this.primary("armature_read_positions").where("actor", reader.userId).first("lsn");
      if (row) needed = lsnValue(row.lsn as string);
    }
    const caughtUp = needed === undefined ? ready : ready.filter((r) => r.replayed! >= needed!);
    if (!caughtUp.length) return this.primaryReads;
    return caughtUp[this.next++ % caughtUp.length].pool;
  }

  async wrote(userIds: Iterable<string>): Promise<void> {
    const actors = [...new Set(userIds)];
    if (!actors.length) return;
    // After the commit, so the position named is at or past its commit record.
    await this.primary.raw(
      `INSERT INTO armature_read_positions (actor, lsn) SELECT a, pg_current_wal_lsn() FROM unnest(?::text[]) AS a
       ON CONFLICT (actor) DO UPDATE SET lsn = GREATEST(armature_read_positions.lsn, EXCLUDED.lsn), at = now()`,
      [actors]);
  }

  /** Where the primary and each replica are; overlapping polls (a slow host) are skipped. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await this.primaryProbe.query("SELECT pg_current_wal_lsn()::text AS lsn");
      this.samples.push({ at, lsn: lsnValue(rows[0].lsn) });
    } catch {
      // The primary away: no new sample, so every replica's lag grows until they get no reads.
    }
    const horizon = at - this.settings.maxLagMs - 1000;
    while (this.samples.length > 1 && this.samples[1].at < horizon) this.samples.shift();
    await Promise.all(this.replicas.map(async (r) => {
      try {
        const { rows } = await r.probe.query("SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn");
        // A replica promoted to primary is another database's history: it gets no reads.
        if (!rows[0].standby || rows[0].lsn === null) { r.up = false; return; }
        r.replayed = lsnValue(rows[0].lsn);
        // The primary's latest sample it has replayed past: it held everything committed by then.
        const passed = this.samples.filter((s) => s.lsn <= r.replayed!);
        if (passed.length) r.caughtUpAt = Math.max(r.caughtUpAt, passed[passed.length - 1].at);
        if (!r.up) this.log(`Read replica ${r.name} answers: it takes reads while it lags no more than DATABASE_REPLICA_MAX_LAG.`);
        r.up = true;
      } catch {
        r.up = false;
      }
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await Promise.all(this.replicas.flatMap((r) => [r.pool.destroy(), r.probe.end()]));
    await Promise.all([this.primaryProbe.end(), this.primaryReads.destroy()]);
  }

  pools(): Knex[] {
    return [this.primaryReads, ...this.replicas.map((r) => r.pool)];
  }
}

/** Reads without replicas: on the primary, through the pool bounded by the statement timeout. */
export class PrimaryRouting implements ReadRouting {
  constructor(private readonly primaryReads: Knex) {}
  async readsFor(): Promise<Knex> { return this.primaryReads; }
  async wrote(): Promise<void> {}
  async close(): Promise<void> { await this.primaryReads.destroy(); }
  pools(): Knex[] { return [this.primaryReads]; }
}

function probePool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 2000, idleTimeoutMillis: 0 });
  // An idle probe connection the server closes (a restart) is replaced at the next poll.
  pool.on("error", () => undefined);
  return pool;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return `${u.host}${u.pathname}`;
  } catch {
    return "(replica)";
  }
}

/** Connections of `fallback`'s pool lent to a replica's client while it is down, to be given back there. */
const borrowed = new WeakSet<object>();

type ClientClass = new (config: Knex.Config) => {
  transacting?: boolean;
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<void>;
  _query(connection: object, obj: unknown): Promise<unknown>;
};

/**
 * A replica pool's client that falls back to the primary's read pool: a connection is lent
 * from it while the replica is down or refuses one, and a statement that loses its replica
 * connection (outside a transaction, where running it again elsewhere is the same read) runs
 * again there.
 */
function failingOver(fallback: Knex, up: () => boolean, down: () => void): ClientWrapper {
  const primary = fallback.client as unknown as InstanceType<ClientClass>;
  return (base) => {
    const Base = base as unknown as ClientClass;
    class FailingOver extends Base {
      async acquireConnection(): Promise<object> {
        if (up()) {
          try {
            return await super.acquireConnection();
          } catch (err) {
            if (!databaseUnavailable(err)) throw err;
            down();
          }
        }
        const connection = await primary.acquireConnection();
        borrowed.add(connection);
        return connection;
      }

      releaseConnection(connection: object): Promise<void> {
        if (!borrowed.has(connection)) return super.releaseConnection(connection);
        borrowed.delete(connection);
        return primary.releaseConnection(connection);
      }

      async _query(connection: object, obj: unknown): Promise<unknown> {
        try {
          return await super._query(connection, obj);
        } catch (err) {
          if (borrowed.has(connection) || this.transacting) throw err;
          // Cancelled for a conflict with the replica's replay (vacuum on the primary removed
          // rows its snapshot needed): the replica is well, this read just runs again where
          // nothing is replayed under it, rather than answering 500.
          if (!recoveryConflict(err)) {
            if (!databaseUnavailable(err)) throw err;
            down();
          }
          const again = await primary.acquireConnection();
          try {
            return await primary._query(again, obj);
          } finally {
            await primary.releaseConnection(again);
          }
        }
      }
    }
    return FailingOver as unknown as typeof Knex.Client;
  };
}
