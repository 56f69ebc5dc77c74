// Request parameters the WordPress way: query string and body (JSON or form-encoded with
// `a[]=1` / `a[b]=c` brackets, read by the shared parser policy in http/body.ts) merged into
// one object without a prototype, body winning; and the coercions
// WordPress applies to them (booleans, positive integers, CSV-or-array lists). Validation
// failures throw rest_invalid_param; nothing here touches the database.
import { BodyProblem, parseBracketed, parseJson } from "../../http/body.js";
import { invalidParam, invalidType, WpError } from "./errors.js";
import { MAX_SERIAL } from "../../store.js";

export type Params = Record<string, unknown>;

/** Query parameters and body of a request, merged, under the shared parser policy. */
export function requestParams(query: string, body: Buffer | undefined, contentType: string): Params {
  try {
    return refuseNul(readParams(query, body, contentType));
  } catch (err) {
    if (!(err instanceof BodyProblem)) throw err;
    if (err.kind === "syntax") throw new WpError(400, "rest_invalid_json", "Invalid JSON body passed.", { json_error_message: err.message });
    throw err.param ? invalidParam(err.param, err.message) : new WpError(400, "rest_invalid_param", err.message);
  }
}

/**
 * PostgreSQL text cannot hold NUL characters: a value carrying one is invalid, and a name
 * carrying one is no parameter the API knows, so it is ignored like any unknown parameter.
 * The walk may recurse: the parser has already bounded the depth.
 */
function refuseNul(params: Params): Params {
  const hasNul = (v: unknown): boolean => (typeof v === "string" ? v.includes("\u0000")
    : v !== null && typeof v === "object" ? Object.entries(v).some(([k, x]) => k.includes("\u0000") || hasNul(x)) : false);
  for (const [name, v] of Object.entries(params)) {
    if (name.includes("\u0000")) delete params[name];
    else if (hasNul(v)) throw invalidParam(name);
  }
  return params;
}

function readParams(query: string, body: Buffer | undefined, contentType: string): Params {
  const params: Params = parseBracketed(new URLSearchParams(query));
  if (!body?.length) return params;
  const text = body.toString("utf8");
  if (contentType === "application/json") {
    const parsed = parseJson(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) Object.assign(params, parsed);
    return params;
  }
  if (contentType === "application/x-www-form-urlencoded" || contentType === "") {
    Object.assign(params, parseBracketed(new URLSearchParams(text)));
  }
  return params;
}

/** WordPress's `rest_sanitize_boolean`: true/false/1/0/yes/no/on/off (any case); null when not a boolean. */
export function toBool(v: unknown): boolean | null {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v === 1 ? true : v === 0 ? false : null;
  if (typeof v !== "string") return null;
  const s = v.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(s)) return true;
  if (["0", "false", "no", "off", ""].includes(s)) return false;
  return null;
}

export function boolParam(params: Params, name: string): boolean | undefined {
  if (params[name] === undefined) return undefined;
  const b = toBool(params[name]);
  if (b === null) throw invalidType(name, "boolean");
  return b;
}

/** A larger id names no record. */
export const MAX_ID = MAX_SERIAL;

/** A record id: a positive integer a serial key can hold; null otherwise. */
export function positiveInt(v: unknown): number | null {
  const s = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "";
  return /^\d+$/.test(s) && Number(s) > 0 && Number(s) <= MAX_ID ? Number(s) : null;
}

export function intParam(params: Params, name: string): number | undefined {
  if (params[name] === undefined) return undefined;
  const n = positiveInt(params[name]);
  if (n === null) throw invalidParam(name);
  return n;
}

/** A CSV string or an array of scalars as a list of trimmed non-empty strings. */
export function listValue(v: unknown): string[] | null {
  if (typeof v === "number") return [String(v)];
  if (typeof v === "string") return v.split(",").map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) {
    return v.flatMap((x) => String(x).split(",")).map((s) => s.trim()).filter(Boolean);
  }
  return null;
}

export function listParam(params: Params, name: string): string[] | undefined {
  if (params[name] === undefined) return undefined;
  const list = listValue(params[name]);
  if (list === null) throw invalidParam(name);
  return list;
}

export function idListParam(params: Params, name: string): number[] | undefined {
  const list = listParam(params, name);
  if (list === undefined) return undefined;
  const ids = list.map(positiveInt);
  if (!list.length || ids.some((n) => n === null)) throw invalidParam(name);
  return ids as number[];
}

/** A non-empty string parameter (WordPress rejects empty search/slug/order values). */
export function textParam(params: Params, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !v.trim()) throw invalidParam(name);
  return v.trim();
}
