// Write pass: the only code that touches `generated/`. Writes every emitted file whose
// contents changed, removes files the emitters no longer produce, and compares an emitted
// set with the disk for `check`. Runs only after every emitter succeeded.
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { EmittedFile } from "../emit/index.js";

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

export function writeGenerated(outDir: string, files: EmittedFile[]): { written: string[]; removed: string[] } {
  const wanted = new Set(files.map((f) => f.path));
  const written: string[] = [];
  const removed: string[] = [];
  for (const f of files) {
    const path = join(outDir, f.path);
    if (existsSync(path) && readFileSync(path, "utf8") === f.contents) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.contents);
    written.push(f.path);
  }
  for (const path of listFiles(outDir)) {
    const rel = relative(outDir, path).split("\\").join("/");
    if (!wanted.has(rel)) {
      rmSync(path);
      removed.push(rel);
    }
  }
  return { written, removed };
}

export interface Drift {
  changed: string[];
  added: string[];
  removed: string[];
}

export function compareGenerated(outDir: string, files: EmittedFile[]): Drift {
  const drift: Drift = { changed: [], added: [], removed: [] };
  const wanted = new Set(files.map((f) => f.path));
  for (const f of files) {
    const path = join(outDir, f.path);
    if (!existsSync(path)) drift.added.push(f.path);
    else if (readFileSync(path, "utf8") !== f.contents) drift.changed.push(f.path);
  }
  for (const path of listFiles(outDir)) {
    const rel = relative(outDir, path).split("\\").join("/");
    if (!wanted.has(rel)) drift.removed.push(rel);
  }
  return drift;
}
