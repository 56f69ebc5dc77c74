// Unique slugs, WordPress's way: a wanted slug cut to the slug column, else its first free
// `-2`, `-3`… variant, chosen under an advisory lock on the slug's prefix.
import type { Knex } from "knex";
import type { ModelDescriptor } from "../../descriptor.js";
import { advisoryLock } from "../../db/locks.js";

/** Room a slug keeps for the longest `-N` suffix (`-2147483647`). */
const SUFFIX_ROOM = 11;

const cutSlug = (s: string, n: number) => s.slice(0, n).replace(/-+$/, "");

/**
 * A wanted slug cut to the slug column (WordPress cuts slugs to 200 characters), the prefix
 * every `-N` variant of it starts with, and the lock key of that prefix without its numeric
 * tail, so `room` and an explicit `room-2` (which `room` may also become) share a lock.
 */
export function slugBase(m: ModelDescriptor, wanted: string): { base: string; prefix: string; key: string; max: number } {
  const slugField = m.fields.find((f) => f.name === "slug");
  const max = (slugField?.kind === "scalar" ? slugField.maxLength : undefined) ?? 200;
  const base = cutSlug(wanted, max);
  const prefix = cutSlug(base, max - SUFFIX_ROOM);
  return { base, prefix, key: `slug:${prefix.replace(/(-\d+)+$/, "")}`, max };
}

/** `wanted`, or WordPress's `wanted-2`, `-3`… when taken; under the lock of its prefix. */
export async function uniqueSlug(db: Knex, m: ModelDescriptor, wanted: string, except?: number): Promise<string> {
  const { base, prefix, key, max } = slugBase(m, wanted);
  await advisoryLock(db, m.table, key);
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const taken = new Set<string>(await db(m.table).pluck("slug")
    .where((w) => w.where("slug", base).orWhere((x) => x.where("slug", "like", like).whereRaw("slug ~ '-[0-9]+$'")))
    .modify((q) => { if (except) q.whereNot("id", except); }));
  const candidate = (i: number) => (i === 1 ? base : `${cutSlug(base, max - String(i).length - 1)}-${i}`);
  for (let i = 1; ; i++) if (!taken.has(candidate(i))) return candidate(i);
}
