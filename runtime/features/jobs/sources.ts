// Where a job record's code is found: jobs of the jobs folders in the catalog, and those of
// other sources (a Git repository's: runtime/features/git/) from the finder their source
// registers.
import type { Knex } from "knex";
import { loadCatalog, type CatalogEntry } from "./catalog.js";
import { classPathOf, type JobRow } from "./records.js";

/** Finders of the code of jobs that no jobs folder gives (a Git repository's: runtime/features/git/), by source. */
const finders = new Map<string, (db: Knex, job: JobRow) => Promise<CatalogEntry | undefined>>();

export function registerJobSource(source: string, find: (db: Knex, job: JobRow) => Promise<CatalogEntry | undefined>): void {
  finders.set(source, find);
}

/** The code of a job record: from its source's finder, else from the jobs folders. */
export async function entryOf(db: Knex, job: JobRow, roots: string[]): Promise<CatalogEntry | undefined> {
  const find = finders.get(job.source);
  return find ? find(db, job) : (await loadCatalog(roots)).jobs.get(classPathOf(job));
}
