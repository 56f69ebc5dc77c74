// The figures as one markdown table: printed, and written to bench/RESULTS.md.
import type { Result } from "./load.js";

/** A goal from the issue that set the bench's targets, checked against one row's figures. */
export interface Target {
  text: string;
  met: (r: Result, ratio: number | undefined) => boolean;
}

export interface Row {
  name: string;
  result: Result;
  /** Armature rows: the floor of the same workload, measured in the same run. */
  floor?: Result;
  isFloor?: boolean;
  target?: Target;
}

const rate = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const ms = (n: number) => (Number.isNaN(n) ? "—" : n >= 1000 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
export const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
/** Round trips per request; a dash where statements went without any (the embedded engine has no socket). */
const trips = (r: Result) => (r.statements > 0 && r.roundTrips === 0 ? "—" : r.roundTrips.toFixed(1));
/** CPU ms per request; a dash where the bench cannot tell it apart (bench/cpu.ts). */
const cpu = (ms: number | undefined) => (ms === undefined ? "—" : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const kb = (bytes: number) => (bytes >= 10240 ? (bytes / 1024).toFixed(0) : (bytes / 1024).toFixed(1));

export const ratio = (row: Row): number | undefined => (row.floor ? row.result.rps / row.floor.rps : undefined);

export function table(rows: Row[]): string {
  const lines = [
    "| workload | requests | req/s | p50 ms | p99 ms | errors | SQL/req | trips/req | server CPU ms/req | PostgreSQL CPU ms/req | KB/answer | ÷ floor | target | peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
  ];
  for (const row of rows) {
    const r = row.result;
    const x = ratio(row);
    const target = row.target ? `${row.target.text}: ${row.target.met(r, x) ? "met" : "**missed**"}` : "";
    const name = row.isFloor ? `floor: ${row.name}` : row.name;
    lines.push(`| ${name} | ${r.requests} | ${rate(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors ? `**${r.errors}**` : "0"} | ` +
      `${r.statements.toFixed(1)} | ${trips(r)} | ${cpu(r.serverCpu)} | ${cpu(r.databaseCpu)} | ${kb(r.answerBytes)} | ${x === undefined ? "" : `${x.toFixed(x < 0.1 ? 3 : 2)}×`} | ${target} | ${mb(r.peakRss)} |`);
  }
  return lines.join("\n");
}

/** Why each failing scenario failed, from its first failed reply. */
export const failures = (rows: Row[]): string[] =>
  rows.filter((row) => row.result.firstError).map((row) => `- ${row.name}: ${row.result.errors} errors, first: \`${row.result.firstError!.replace(/\s+/g, " ").replace(/`/g, "'")}\``);

export const peak = (rows: Row[]) => mb(Math.max(...rows.map((row) => row.result.peakRss)));
