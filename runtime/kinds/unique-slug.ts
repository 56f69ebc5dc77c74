// django-extensions' AutoSlugField, which Nautobot's slugs are: a slug made from another field
// is kept free by a "-2", "-3"… suffix (the stem cut short to leave room for it), among the rows
// that share the values of every field it is unique together with. Rows written together (a
// bulk create) get theirs at once: a statement finds which candidates are taken, and each
// row takes the first one free of the stored rows and of the set's rows before it.
import { storedColumn, type ScalarField } from "../descriptor.js";
import type { WriteContext } from "./types.js";
import { chunksWithin } from "../db/chunks.js";

/** Candidates a pass after the first tries per stem, beyond one for each row of the set made from it. */
const BATCH = 20;

function candidate(base: string, i: number, maxLength: number): string {
  if (i === 1) return base;
  const end = `-${i}`;
  const stem = base.length + end.length > maxLength ? base.slice(0, maxLength - end.length).replace(/^[-_]+|[-_]+$/g, "") : base;
  return `${stem}${end}`;
}

/**
 * A free slug for each of `wanted` (a base and the row it is for), in order, all rows of one
 * model and set: `ctxs` are the set's rows, whose slugs given by their writers count as taken.
 */
export async function freeSlugs(f: ScalarField, wanted: Array<{ base: string; ctx: WriteContext }>, ctxs: WriteContext[]): Promise<string[]> {
  if (!wanted.length) return [];
  const { db, index, model } = wanted[0].ctx;
  const together = model.uniqueTogether.filter((g) => g.fields.includes(f.name)).flatMap((g) => g.fields).filter((name) => name !== f.name);
  if (!f.unique && !together.length) return wanted.map((w) => w.base);
  const scope = [...new Set(together)].map((name) => storedColumn(index.field(model, name)!)!);
  // A slug as taken within its scope: the values of the fields it is unique together with.
  const key = (row: Record<string, unknown>, slug: unknown) => JSON.stringify([...scope.map((c) => row[c] ?? null), slug]);
  const taken = new Set(ctxs.filter((ctx) => ctx.row[f.column] !== undefined).map((ctx) => key(ctx.row, ctx.row[f.column])));
  const maxLength = f.maxLength ?? 100;
  const out: string[] = [];
  let pending = wanted.map((_, n) => n);
  // Where each stem's next window starts; the first tries only as many as the set has rows of
  // it (most stems are free), a later one some more.
  const next = new Map<string, number>();
  for (let pass = 0; pending.length; pass++) {
    const sharing = new Map<string, number>();
    for (const n of pending) sharing.set(wanted[n].base, (sharing.get(wanted[n].base) ?? 0) + 1);
    const windows = new Map([...sharing].map(([base, rows]) => {
      const first = next.get(base) ?? 1;
      const size = rows + (pass ? BATCH : 0);
      next.set(base, first + size);
      return [base, Array.from({ length: size }, (_, k) => candidate(base, first + k, maxLength))];
    }));
    const tried = [...new Set([...windows.values()].flat())];
    for (const part of chunksWithin(tried.map((slug) => ({ slug })))) {
      const found = await db(model.table).whereIn(f.column, part.map((p) => p.slug)).select(f.column, ...scope);
      for (const row of found) taken.add(key(row, String(row[f.column])));
    }
    const left: number[] = [];
    for (const n of pending) {
      const { base, ctx } = wanted[n];
      const free = windows.get(base)!.find((slug) => !taken.has(key(ctx.row, slug)));
      if (free === undefined) {
        left.push(n);
        continue;
      }
      taken.add(key(ctx.row, free));
      out[n] = free;
    }
    pending = left;
  }
  return out;
}
