// Dates the WordPress way: parses what PHP's strtotime accepts in practice (unix timestamps,
// `YYYY-MM-DD[ hh:mm[:ss]]`, ISO 8601, `now`/`today`/`tomorrow`/`yesterday`, `+N unit`,
// `next <weekday>`, trailing `9am`/`19:00`) into wall time, and converts wall time between
// IANA zones or `UTC±N` offsets. Pure functions over Date values read as UTC fields.

const UNITS: Record<string, number> = { sec: 1, second: 1, min: 60, minute: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** A wall-clock time: a Date whose UTC fields hold the local fields. */
export type Wall = Date;

/** `2024-07-14 20:00:00` from a wall time. */
export function formatWall(d: Wall): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings. */
export function details(d: Wall): Record<string, string> {
  const s = formatWall(d);
  return { year: s.slice(0, 4), month: s.slice(5, 7), day: s.slice(8, 10), hour: s.slice(11, 13), minutes: s.slice(14, 16), seconds: s.slice(17, 19) };
}

/** Whether a timezone name is usable: an IANA zone, `UTC`, or `UTC±N[:MM]` up to WordPress's ±14 hours. */
export function validZone(tz: string): boolean {
  const fixed = /^UTC(?:[+-](\d{1,2})(?::?(\d{2}))?)?$/.exec(tz);
  if (fixed) return Number(fixed[1] ?? 0) * 60 + Number(fixed[2] ?? 0) <= 14 * 60 && Number(fixed[2] ?? 0) < 60;
  try { new Intl.DateTimeFormat("en-US", { timeZone: tz }); return true; } catch { return false; }
}

/**
 * Whether a wall time or instant lies in years 1–9999: what the plugin's `Y-m-d H:i:s` format
 * writes and what a PostgreSQL timestamp reads back as the same text.
 */
export function inRange(d: Date): boolean {
  const y = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && y >= 1 && y <= 9999;
}

/** Offset of `tz` from UTC in minutes at the instant `at`. */
export function offsetMinutes(tz: string, at: Date): number {
  const fixed = /^UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/.exec(tz);
  if (fixed) return fixed[1] ? (fixed[1] === "-" ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0)) : 0;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz, hourCycle: "h23", era: "short", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const bc = parts.find((p) => p.type === "era")?.value === "BC";
  // setUTCFullYear, unlike Date.UTC, takes years below 100 (and 1 BC = year 0) as they are.
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(bc ? 1 - get("year") : get("year"), get("month") - 1, get("day"));
  asUtc.setUTCHours(get("hour"), get("minute"), get("second"));
  return Math.round((asUtc.getTime() - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

export function wallToUtc(wall: Wall, tz: string): Date {
  const guess = new Date(wall.getTime() - offsetMinutes(tz, wall) * 60000);
  return new Date(wall.getTime() - offsetMinutes(tz, guess) * 60000);
}

export function utcToWall(at: Date, tz: string): Wall {
  return new Date(at.getTime() + offsetMinutes(tz, at) * 60000);
}

/** Formatters of zones' short names, by zone: making one costs more than using it many times. */
const zoneNamers = new Map<string, Intl.DateTimeFormat>();
/** Zones' formatters kept at most: the zones a site's events use are few, and any text can name one. */
const MAX_ZONE_NAMERS = 64;

/** Short zone name (`EDT`, `UTC+2`), or "" when the zone is empty. */
export function zoneAbbr(tz: string, at: Date): string {
  if (!tz) return "";
  if (tz.startsWith("UTC")) return tz;
  let namer = zoneNamers.get(tz);
  if (!namer) {
    namer = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "short" });
    if (zoneNamers.size >= MAX_ZONE_NAMERS) zoneNamers.clear();
    zoneNamers.set(tz, namer);
  }
  return namer.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "";
}

/**
 * Parses a date phrase into wall time in `tz`, relative to `now`. Gives null for anything
 * it does not understand, which callers report as an invalid parameter.
 */
export function parseDate(input: string, tz: string, now = new Date()): Wall | null {
  const raw = input.trim().toLowerCase();
  if (!raw) return null;
  if (/^-?\d{9,11}$/.test(raw)) {
    const d = new Date(Number(raw) * 1000);
    return inRange(d) ? checked(utcToWall(d, tz)) : null;
  }
  const abs = /^(\d{4})-(\d{2})-(\d{2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$/.exec(raw);
  if (abs) {
    const [, y, mo, d, h = "0", mi = "0", s = "0", off] = abs;
    const wall = new Date(Date.UTC(2000, +mo - 1, +d, +h, +mi, +s));
    // Date.UTC reads years below 100 as 19xx; set the year itself.
    wall.setUTCFullYear(+y);
    if (+y < 1 || wall.getUTCMonth() !== +mo - 1 || +h > 23 || +mi > 59 || +s > 59) return null;
    if (!off) return wall;
    const sign = off === "z" ? 0 : off[0] === "-" ? -1 : 1;
    const mins = off === "z" ? 0 : sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(-2)));
    const at = new Date(wall.getTime() - mins * 60000);
    return inRange(at) ? checked(utcToWall(at, tz)) : null;
  }
  let cur = utcToWall(now, tz);
  let rest = raw;
  let matched = false;
  const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const eat = (re: RegExp, run: (m: RegExpExecArray) => boolean | void): boolean => {
    const m = re.exec(rest);
    if (!m || run(m) === false) return false;
    rest = rest.slice(m[0].length).trim();
    matched = true;
    return true;
  };
  for (let guard = 0; rest && guard < 10; guard++) {
    const progressed =
      eat(/^now\b/, () => undefined) ||
      eat(/^(today|midnight)\b/, () => { cur = startOfDay(cur); }) ||
      eat(/^tomorrow\b/, () => { cur = new Date(startOfDay(cur).getTime() + 86400000); }) ||
      eat(/^yesterday\b/, () => { cur = new Date(startOfDay(cur).getTime() - 86400000); }) ||
      eat(/^noon\b/, () => { cur = new Date(startOfDay(cur).getTime() + 12 * 3600000); }) ||
      eat(/^(next|last|this)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/, (m) => {
        const want = WEEKDAYS.indexOf(m[2]);
        const today = cur.getUTCDay();
        let delta = (want - today + 7) % 7;
        if (m[1] === "next" && delta === 0) delta = 7;
        if (m[1] === "last") delta = delta === 0 ? -7 : delta - 7;
        cur = new Date(startOfDay(cur).getTime() + delta * 86400000);
      }) ||
      eat(/^([+-]?\d+)\s*(sec|second|min|minute|hour|day|week|fortnight|month|year)s?\b(\s+ago\b)?/, (m) => {
        const n = Number(m[1]) * (m[3] ? -1 : 1);
        if (m[2] === "month" || m[2] === "year") {
          const d = new Date(cur);
          if (m[2] === "month") d.setUTCMonth(d.getUTCMonth() + n); else d.setUTCFullYear(d.getUTCFullYear() + n);
          cur = d;
        } else cur = new Date(cur.getTime() + n * UNITS[m[2]] * 1000);
      }) ||
      eat(/^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?\b/, (m) => {
        if (!m[2] && !m[4]) return false;
        let h = Number(m[1]);
        if (m[4]) { if (h < 1 || h > 12) return false; h = (h % 12) + (m[4] === "pm" ? 12 : 0); }
        if (h > 23 || Number(m[2] ?? 0) > 59) return false;
        cur = new Date(startOfDay(cur).getTime() + (h * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000);
      });
    if (!progressed) break;
  }
  if (rest || !matched) return null;
  return checked(new Date(Math.floor(cur.getTime() / 1000) * 1000));
}

function checked(w: Wall): Wall | null {
  return inRange(w) ? w : null;
}
