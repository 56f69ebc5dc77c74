// One written field's value from its request parameter, WordPress's way: the JSON type its
// argument declares (with WordPress's coercions of request values), then the field's own
// rules (choices, dates in the site's or the record's zone, numeric ranges, UUIDs, required
// or blank text, lengths, URLs, slugs). Pure: nothing here touches the database.
import type { ScalarField, WpModelDescriptor } from "../../descriptor.js";
import { formatWall, inRange, parseDate, wallToUtc } from "./dates.js";
import { toBool } from "./params.js";
import type { Requester } from "./auth.js";
import { sanitizeTitle as slugify } from "../../text/slugs.js";

/** A parameter's value the field refuses. */
export const REFUSED = Symbol("refused");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Contributors cannot publish: `publish`/`future` become `pending`. */
export function scaleStatus(value: string, who: Requester, isStatus: boolean): string {
  if (!isStatus || who.role === "editor") return value;
  return value === "publish" || value === "future" ? "pending" : value;
}

/**
 * Whether `v` has the JSON type a field's argument declares, with WordPress's coercions of
 * request values: numbers pass as strings, numeric strings as numbers, `""` or null clear a
 * nullable number, and the money field also takes a list of prices.
 */
export function ofType(v: unknown, type: string, nullable: boolean, money: boolean): boolean {
  switch (type) {
    case "boolean":
      return toBool(v) !== null;
    case "number":
      return typeof v === "number" || (typeof v === "string" && (!v.trim() || Number.isFinite(Number(v)))) || (v === null && nullable);
    default:
      return typeof v === "string" || typeof v === "number" || (money && Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number"));
  }
}

function isUrl(s: string): boolean {
  try { const u = new URL(s); return u.protocol === "http:" || u.protocol === "https:"; } catch { return false; }
}

/** Where a scalar field's dates are read: its record's zone (wall-clock fields) or the site's. */
export interface Zones {
  /** The record's zone, for the wall-clock start and end. */
  zone: string;
  /** The site's zone, for every other date (stored in UTC). */
  tz: string;
}

/** The stored value of scalar field `f` from parameter `v` (`text`: its trimmed text), or REFUSED. */
export function scalarValue(wp: WpModelDescriptor, f: ScalarField, v: unknown, text: string | null, zones: Zones): unknown {
  const clock = wp.wallClock;
  switch (f.type) {
    case "boolean":
      return toBool(v);
    case "datetime": {
      // Wall-clock fields are stored as read; others in UTC, which must stay in range too.
      const local = !!clock && [clock.start, clock.end].includes(f.name);
      const w = text ? parseDate(text, local ? zones.zone : zones.tz) : null;
      const utc = w && !local ? wallToUtc(w, zones.tz) : null;
      if (!w || (utc && !inRange(utc))) return REFUSED;
      return utc ? utc.toISOString() : `${formatWall(w)}+00`;
    }
    case "float": {
      const n = v === null || (typeof v === "string" && !v.trim()) ? null : Number(v);
      if (n === null ? !f.nullable : (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) return REFUSED;
      return n;
    }
    case "uuid":
      return text && UUID.test(text) ? text : REFUSED;
    default: {
      const s = Array.isArray(v) ? v.map(String).join(", ") : text;
      if (s === null) return REFUSED;
      if ((f.required || f.blank === false || f.name === "slug") && !s) return REFUSED;
      if (f.maxLength && s.length > f.maxLength) return REFUSED;
      if (f.format === "url" && s && !isUrl(s)) return REFUSED;
      if (wp.images?.includes(f.name) && s && !isUrl(s)) return REFUSED;
      if (clock && f.name === clock.timezone) return s;
      return f.name === "slug" ? slugify(s) : s;
    }
  }
}
