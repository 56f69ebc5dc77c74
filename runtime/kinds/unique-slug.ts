// django-extensions' AutoSlugField, which Nautobot's slugs are: a slug made from another field
// is kept free by a "-2", "-3"… suffix (the stem cut short to leave room for it), among the rows
// that share the values of every field it is unique together with.
import { storedColumn, type ScalarField } from "../descriptor.js";
import type { WriteContext } from "./types.js";

/** Candidates tried per query. */
const BATCH = 20;

function candidate(base: string, i: number, maxLength: number): string {
  if (i === 1) return base;
  const end = `-${i}`;
  const stem = base.length + end.length > maxLength ? base.slice(0, maxLength - end.length).replace(/^[-_]+|[-_]+$/g, "") : base;
  return `${stem}${end}`;
}

export async function freeSlug(f: ScalarField, base: string, { db, index, model, row }: WriteContext): Promise<string> {
  const together = model.uniqueTogether.filter((g) => g.fields.includes(f.name)).flatMap((g) => g.fields).filter((name) => name !== f.name);
  if (!f.unique && !together.length) return base;
  const scope = Object.fromEntries([...new Set(together)].map((name) => {
    const column = storedColumn(index.field(model, name)!)!;
    return [column, row[column] ?? null];
  }));
  const maxLength = f.maxLength ?? 100;
  for (let first = 1; ; first += BATCH) {
    const tried = Array.from({ length: BATCH }, (_, k) => candidate(base, first + k, maxLength));
    const taken = new Set((await db(model.table).where(scope).whereIn(f.column, tried).pluck(f.column)).map(String));
    const free = tried.find((slug) => !taken.has(slug));
    if (free !== undefined) return free;
  }
}
