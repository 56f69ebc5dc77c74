// A run's log, stored line by line as the job writes it. On PostgreSQL each line is its own
// statement on a connection of its own, committed at once: readable while the job runs, kept
// whatever becomes of the job's transaction. The embedded database has one connection, which
// the job's transaction holds: there a line goes into that transaction, and the lines a
// rolled-back savepoint took with it are written again after it, as they were. Either way
// nobody can tell the difference: on PGlite nobody else reads while the transaction is open.
import type { Knex } from "knex";
import type { Loggable } from "./define.js";
import type { JobRecords, LogEntry, LogLevel } from "./records.js";

export type LogMode = "apart" | "inTransaction";

export class RunLog {
  /** Where lines go in `inTransaction` mode: the job's transaction, or the savepoint its work runs in. */
  target?: Knex.Transaction;
  /** The savepoint the job's work runs in, while it runs (`inTransaction` mode). */
  private savepoint?: Knex.Transaction;
  /** Lines written into it, with the time the database gave them. */
  private inSavepoint: Array<Record<string, unknown>> = [];
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly records: JobRecords, private readonly resultId: string, private readonly mode: LogMode, private readonly db: Knex) {}

  /** Stores a line (Nautobot's JobResult.log): about `obj` when given, shown by its display and linked by its URL. */
  write(level: LogLevel, grouping: string, message: string, obj?: Loggable | null): Promise<void> {
    const entry: LogEntry = {
      level, grouping, message,
      logObject: obj ? String(obj.display ?? JSON.stringify(obj)) : null,
      absoluteUrl: obj && typeof obj.url === "string" ? obj.url : null,
    };
    const done = this.store(entry).finally(() => this.writing.delete(done));
    this.writing.add(done);
    return done;
  }

  private async store(entry: LogEntry): Promise<void> {
    const l = this.records.logs;
    const created = this.records.c(l, "created");
    const row = this.records.logRow(this.db, this.resultId, entry);
    const into = this.mode === "inTransaction" && this.target ? this.target : this.db;
    const [stored] = await into(l.table).insert(row).returning(created);
    if (into === this.savepoint) this.inSavepoint.push({ ...row, [created]: stored[created] });
  }

  /** Waits for the lines still being written. */
  async settled(): Promise<void> {
    while (this.writing.size) await Promise.allSettled([...this.writing]);
  }

  /** A savepoint's work begins: lines written from now on may be lost with it. */
  enter(sp: Knex.Transaction): void {
    this.target = sp;
    this.savepoint = sp;
    this.inSavepoint = [];
  }

  /** The savepoint ended; `kept`: it was released. Lines it took with it are written again in `trx`. */
  async leave(trx: Knex.Transaction, kept: boolean): Promise<void> {
    await this.settled();
    const lost = kept ? [] : this.inSavepoint;
    this.inSavepoint = [];
    this.savepoint = undefined;
    this.target = trx;
    if (lost.length) await trx(this.records.logs.table).insert(lost);
  }
}
