// A write that presumes what its lookups would find, rather than waiting for them. A single
// create or update asks whether the objects it names exist, and reads definitions (custom
// fields, required relationships) that almost never change between two writes; waiting for
// those answers cost the write a round trip before anything else could be sent. A presuming
// write takes every asked-for object as found and every definition as it was last read, goes
// on at once, and sends with its other statements one that fails unless all of that held
// (`armature_presume`, runtime/db/runtime-migrations.ts). A write whose presumptions held did
// exactly what the ordinary way does, its refusals included. One that fails where they did not
// (or where their statement never ran) is run again the ordinary way (Operations.run), which
// answers with the exact errors: a presuming write never answers with an error of its own.
//
// What was last read is only a guess kept per process: it is checked in the write's own
// transaction, so instances need not agree on it.
import type { Knex } from "knex";
import { KeptTexts } from "../kept-texts.js";

/** The presuming transactions, each with whether each presumption it sent held. */
const presuming = new WeakMap<object, Array<Promise<boolean>>>();

/** Makes the transaction `trx` presume (see above). */
export function presume(trx: Knex.Transaction): void {
  presuming.set(trx, []);
}

/** Whether `db` is a presuming transaction (its savepoints are not: they run the ordinary way). */
export function presumes(db: object): boolean {
  return presuming.has(db);
}

/** Tells that `db` sent a presumption, whose statement's outcome `held` gives. */
export function presumed(db: object, held: Promise<boolean>): void {
  presuming.get(db)?.push(held);
}

/** Whether every presumption `db` sent held: where one did not, what the transaction did is no answer. */
export async function presumptionsHeld(db: object | undefined): Promise<boolean> {
  const sent = db && presuming.get(db);
  return !sent || (await Promise.all(sent)).every(Boolean);
}

/** Characters of reads' last results (and the reads' texts) kept at most: far more than the definitions a server reads. */
const KEPT_CHARACTERS = 4_000_000;

/** The JSON text a read (by its text and bindings) gave last time, least recently used dropped first. */
export class LastRead {
  private readonly kept = new KeptTexts<string>(KEPT_CHARACTERS, (text) => text.length);

  private static key(sql: string, bindings: unknown[]): string {
    return `${sql}\u0000${JSON.stringify(bindings)}`;
  }

  of(sql: string, bindings: unknown[]): string | undefined {
    return this.kept.get(LastRead.key(sql, bindings));
  }

  set(sql: string, bindings: unknown[], text: string): void {
    this.kept.set(LastRead.key(sql, bindings), text);
  }
}

export const lastReads = new LastRead();
