// A scalar column: how each scalar type is selected (dates as ISO text, integers as
// numbers, addresses as text), coerced on write, filled on create, and described.
import { storedColumn, type FkField, type ScalarField, type ScalarType } from "../descriptor.js";
import { hashPassword, randomHex } from "../auth/passwords.js";
import { jsonbJson, numberJson, scalarJson } from "../query/json-text.js";
import { col } from "../query/sql.js";
import { parseInterface, parseNetwork } from "../query/network.js";
import { slugify } from "../text/slugs.js";
import { freeSlugs } from "./unique-slug.js";
import { FieldProblem, isPlainObject, writeByValue, type RuntimeFieldKind, type WriteContext } from "./types.js";

const OPTIONS_TYPE: Record<ScalarType, string> = {
  string: "string", text: "string", uuid: "string", cidr: "string", ip: "string", password: "string",
  integer: "integer", float: "float", decimal: "decimal", boolean: "boolean", date: "date", datetime: "datetime", json: "field",
};

/**
 * A decimal as DRF's DecimalField takes it: a number or a numeric string, with no more digits
 * in all, after the point, or before it than the field allows; stored as its text.
 */
function decimal(f: ScalarField, value: unknown): string {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const m = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || !`${m[1]}${m[2] ?? ""}`) throw new FieldProblem({ code: "invalid_number" });
  // Counted as DRF counts Python's Decimal: coefficient digits without leading zeros, and the exponent.
  const digits = `${m[1]}${m[2] ?? ""}`.replace(/^0+(?=\d)/, "").length;
  const exponent = Number(m[3] ?? 0) - (m[2]?.length ?? 0);
  const [total, places] = exponent >= 0 ? [digits + exponent, 0] : digits > -exponent ? [digits, -exponent] : [-exponent, -exponent];
  const max = f.maxDigits!, allowedPlaces = f.decimalPlaces!;
  if (total > max) throw new FieldProblem({ code: "max_digits", limit: max });
  if (places > allowedPlaces) throw new FieldProblem({ code: "max_decimal_places", limit: allowedPlaces });
  if (total - places > max - allowedPlaces) throw new FieldProblem({ code: "max_whole_digits", limit: max - allowedPlaces });
  return text;
}

/** The column value of a written value; a promise only for a password, whose hash takes a while. */
function coerce(f: ScalarField, value: unknown): unknown {
  if (value === null) return null;
  switch (f.type) {
    case "decimal": return decimal(f, value);
    case "cidr": {
      const net = typeof value === "string" ? parseNetwork(value) : null;
      if (!net) throw new FieldProblem({ code: "invalid_network", value });
      return net;
    }
    case "ip": {
      const ip = typeof value === "string" ? parseInterface(value) : null;
      if (!ip) throw new FieldProblem({ code: "invalid_ip_address", value });
      return ip;
    }
    case "password": return hashPassword(String(value));
    case "json": return JSON.stringify(value);
    default: return value;
  }
}

/**
 * The text each row's slug is made from: a field of the row being written, or (`fk.field`) of
 * the row it points to, those read in one statement for the whole set.
 */
async function sourceTexts(path: string, ctxs: WriteContext[]): Promise<Array<string | undefined>> {
  const [name, far] = path.split(".");
  const { db, index, model } = ctxs[0];
  const field = index.field(model, name);
  const values = ctxs.map(({ row }) => (field && "column" in field ? row[field.column] : undefined));
  if (far === undefined) return values.map((v) => (typeof v === "string" ? v : undefined));
  const target = index.model((field as FkField).target);
  const ids = [...new Set(values.filter((v) => v !== undefined && v !== null))];
  const column = storedColumn(index.field(target, far)!)!;
  const texts = new Map(ids.length ? (await db(target.table).whereIn("id", ids as string[]).select("id", column)).map((r) => [String(r.id), r[column]]) : []);
  return values.map((v) => {
    const text = v === undefined || v === null ? undefined : texts.get(String(v));
    return typeof text === "string" ? text : undefined;
  });
}

/** Slugs for the rows of a set that were given none: as django-extensions joins populate_from, each part slugified, empty parts dropped. */
async function slugs(f: ScalarField, ctxs: WriteContext[]): Promise<void> {
  const wanting = ctxs.filter(({ row }) => row[f.column] === undefined);
  if (!wanting.length) return;
  const parts = await Promise.all(f.slugFrom!.map((path) => sourceTexts(path, wanting)));
  const wanted = wanting.flatMap((ctx, n) => {
    const texts = parts.map((p) => p[n]);
    if (texts[texts.length - 1] === undefined) return [];
    const joined = texts.map((p) => slugify(p ?? "")).filter(Boolean).join("-");
    return [{ base: (f.slugUnderscores ? joined.replace(/-/g, "_") : joined).slice(0, f.maxLength ?? 100), ctx }];
  });
  const free = await freeSlugs(f, wanted, ctxs);
  wanted.forEach(({ ctx }, n) => (ctx.row[f.column] = free[n]));
}

/** The values a new row is given when its writer gave none: a slug, a random token. */
async function created(f: ScalarField, ctxs: WriteContext[]): Promise<void> {
  if (f.slugFrom) return slugs(f, ctxs);
  if (isPlainObject(f.default) && "randomHex" in f.default) {
    for (const { row } of ctxs) if (row[f.column] === undefined) row[f.column] = randomHex(Number(f.default.randomHex));
  }
}

export const scalar: RuntimeFieldKind<ScalarField> = {
  read(f, { alias }) {
    const c = col(alias, f.column);
    switch (f.type) {
      case "date": return `to_char(${c}, 'YYYY-MM-DD')`;
      case "datetime": return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
      case "cidr": case "ip": case "decimal": return `${c}::text`;
      case "integer": return `${c}::float8`;
      default: return c;
    }
  },
  json(f, ctx) {
    const c = col(ctx.alias, f.column);
    switch (f.type) {
      // Integer columns print as JavaScript prints their numbers (a double's exponent starts past any of them).
      case "integer": case "boolean": return `coalesce(${c}::text, 'null')`;
      case "float": return numberJson(`${c}::float8`);
      case "json": return jsonbJson(c);
      default: return scalarJson(scalar.read!(f, ctx));
    }
  },
  ...writeByValue<ScalarField>({
    resolve: coerce,
    apply(f, value, { row }) {
      row[f.column] = value;
    },
    alone: (f) => f.type === "password",
  }),
  // Python's isoformat of an aware UTC time (microseconds left out when none, as it does).
  displayText: (f, column, transform) => (transform === "isoformat" && f.type === "datetime"
    ? `(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || CASE WHEN extract(microseconds FROM ${column})::bigint % 1000000 = 0 THEN '' ` +
      `ELSE to_char(${column} AT TIME ZONE 'UTC', '.US') END || '+00:00')`
    : `${column}::text`),
  storesJson: (f) => f.type === "json",
  onCreate: (f, ctx) => created(f, [ctx]),
  onCreateSet: created,
  onUpdate(f, { db, row }) {
    if (f.autoNow === "update") row[f.column] = db.fn.now();
  },
  options: {
    type: (f) => (f.format === "email" || f.format === "url" ? f.format : OPTIONS_TYPE[f.type]),
    describe(f, info) {
      if (f.maxLength) info.max_length = f.maxLength;
      if (f.minLength) info.min_length = f.minLength;
      if (f.min !== undefined) info.min_value = f.min;
      if (f.max !== undefined) info.max_value = f.max;
    },
  },
};
