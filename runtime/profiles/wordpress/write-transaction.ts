// A write as one operation of the engine, retried when it lost a race; and the advisory lock
// on a term name that term writes check under.
import type { Knex } from "knex";
import { storedColumn, type ModelDescriptor } from "../../descriptor.js";
import { advisoryLock } from "../../db/locks.js";
import type { Actor, Operations, WriteOperation } from "../../operations/index.js";
import { invalidParam } from "./errors.js";

/**
 * What a write is run again after, besides the conflicts every operation is retried on: a
 * unique or foreign key violation (a race lost to a concurrent insert or delete; the re-run
 * sees the winner and answers as a sequential request would).
 */
const RACES = ["23505", "23503"];

/**
 * Runs a write as an operation, again when it lost a race (see RACES); a violation that
 * persists becomes the 400 naming the parameter of the offending column.
 */
export async function writeTransaction<T>(operations: Operations, actor: Actor, m: ModelDescriptor, run: (op: WriteOperation) => Promise<T>): Promise<T> {
  try {
    return await operations.run(actor, run, { retryOn: RACES });
  } catch (err) {
    const { code, detail } = err as { code?: unknown; detail?: string };
    if (typeof code !== "string" || !RACES.includes(code)) throw err;
    const column = /Key \(([^)]+)\)=/.exec(detail ?? "")?.[1];
    const f = m.fields.find((x) => storedColumn(x) === column || (x.kind === "m2m" && x.through.target === column));
    if (!f) throw err;
    throw invalidParam(f.name);
  }
}

/** The lock key of a term name: names differing only in case or surrounding space share it. */
export const termKey = (name: string) => `name:${name.trim().toLowerCase()}`;

/** The lock on a term name, taken before checking whether the name is free. */
export function lockTermName(trx: Knex, m: ModelDescriptor, name: string): Promise<void> {
  return advisoryLock(trx, m.table, termKey(name));
}
