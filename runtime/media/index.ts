// Uploaded files (image fields): the media folder they are kept in (MEDIA_ROOT), served back at
// MEDIA_PATH as Nautobot serves its media, and the limit on one file's size. A process has
// one media folder, set from its configuration as the app is made (`useMedia`), which the
// image kind writes into and removes from; files are named as Django's storage names them.
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile, access } from "node:fs/promises";
import { dirname, extname, resolve, sep } from "node:path";
import express, { type Router } from "express";
import type { Knex } from "knex";

/** Where files are served, below the site's root (Nautobot's MEDIA_URL). */
export const MEDIA_PATH = "/media/";

export interface MediaSettings {
  /** The folder files are kept in. */
  root: string;
  /** The largest file taken, in bytes. */
  maxBytes: number;
}

let current: MediaSettings = { root: resolve(".data/media"), maxBytes: 5 * 1024 * 1024 };

/** Makes `settings` the process's media folder and limit. */
export function useMedia(settings: MediaSettings): void {
  current = { ...settings, root: resolve(settings.root) };
}

export const media = (): MediaSettings => current;

/** The file `name` (relative, as a column keeps it) under the root; never outside it. */
function pathOf(name: string): string {
  const path = resolve(current.root, name);
  if (!path.startsWith(current.root + sep)) throw new Error(`media name outside the media folder: ${name}`);
  return path;
}

/** A file name as Django's get_valid_filename makes it: spaces to underscores, only `-`, `_`, `.`, letters and digits. */
export function validFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const valid = base.trim().replace(/ /g, "_").replace(/[^-\w.]/g, "");
  return valid === "" || valid === "." || valid === ".." ? "file" : valid;
}

const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * Keeps `data` as `name`, or, when a file has that name, as Django's storage does: the name
 * with `_` and seven random characters before its extension; either cut short before the
 * extension to `maxLength` characters. Gives the name used.
 */
export async function saveFile(name: string, data: Buffer, maxLength: number): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const fit = (s: string) => `${s.slice(0, maxLength - ext.length)}${ext}`;
  let chosen = fit(stem);
  while (await exists(pathOf(chosen))) {
    const suffix = randomBytes(8).toString("base64url").replace(/[-_]/g, "").slice(0, 7).padEnd(7, "x");
    chosen = fit(`${stem.slice(0, maxLength - ext.length - 8)}_${suffix}`);
  }
  await mkdir(dirname(pathOf(chosen)), { recursive: true });
  await writeFile(pathOf(chosen), data, { flag: "wx" });
  return chosen;
}

export async function removeFile(name: string): Promise<void> {
  await rm(pathOf(name), { force: true });
}

/** A transaction as Knex hands it over: a savepoint knows the transaction it is in. */
type Nested = Knex.Transaction & { parentTransaction?: Nested };

/**
 * Runs `work` once `db`'s transaction has committed (at once outside one), or `undone` once it
 * or a savepoint it is in rolled back: a file is removed only when the row naming it is gone
 * for good, and a file written for a row that never was is not left behind.
 */
export function whenCommitted(db: Knex | Knex.Transaction, work: () => Promise<void>, undone?: () => Promise<void>): void {
  const ends: Array<Promise<unknown>> = [];
  for (let t = db.isTransaction ? (db as Nested) : undefined; t; t = t.parentTransaction) ends.push(t.executionPromise);
  Promise.all(ends).then(() => work(), () => undone?.()).catch(() => undefined);
}

/** Serves the media folder, as Django's `serve` view does Nautobot's: files only, no listings. */
export function mediaRoutes(): Router {
  const router = express.Router();
  let served: { root: string; handler: ReturnType<typeof express.static> } | undefined;
  router.use((req, res, next) => {
    if (served?.root !== current.root) served = { root: current.root, handler: express.static(current.root, { index: false, dotfiles: "deny", redirect: false }) };
    served.handler(req, res, next);
  });
  return router;
}
