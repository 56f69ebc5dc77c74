// How Python, and so Nautobot's stack, prints and reads JSON values: `{'name': 'x'}`, and
// `int()` or `Decimal()` of a string. No I/O, no knowledge of fields. (How DRF's messages
// name a value's type is the DRF profile's wording.)

/** DRF's IntegerField drops a trailing `.0…` (and spaces) first, so "80.0" is 80 but "80.5" is no integer. */
const TRAILING_ZEROS = /\.0*\s*$/;
/** What Python's `int()` reads from text: spaces around, a sign, digits with single underscores between. */
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/**
 * A JSON value as DRF's IntegerField reads it (`int(str(value))` after dropping `.0`): whole
 * numbers, and strings of them; null for anything else (booleans, fractions, other text).
 */
export function drfInteger(v: unknown): bigint | null {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : null;
  if (typeof v !== "string") return null;
  const text = v.replace(TRAILING_ZEROS, "");
  return PY_INT.test(text) ? BigInt(text.trim().replace(/_/g, "")) : null;
}

/** Python's Decimal syntax (after strip()): digits with single underscores, a point, an exponent. */
const PY_DECIMAL = /^([+-]?)(\d+(?:_\d+)*)?(?:\.(\d+(?:_\d+)*)?)?(?:[eE]([+-]?\d+(?:_\d+)*))?$/;
/** Longer than any whole number a write takes (DRF refuses longer strings): such a value names nothing stored. */
const MAX_DIGITS = 1000;

/**
 * `int(Decimal(text.strip()))` as decimal text (Django's DecimalField, then an integer
 * lookup: `80.9` is 80), "huge" for a finite value longer than any stored integer, or null
 * when Python reads no finite number.
 */
export function truncatedDecimal(text: string): string | "huge" | null {
  const m = PY_DECIMAL.exec(text.trim());
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  const [whole, fraction] = [(m[2] ?? "").replace(/_/g, ""), (m[3] ?? "").replace(/_/g, "")];
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (!digits) return "0";
  const exponent = Number((m[4] ?? "0").replace(/_/g, "")) - fraction.length;
  const wholeDigits = digits.length + exponent;
  if (wholeDigits <= 0) return "0";
  if (wholeDigits > MAX_DIGITS) return "huge";
  const integer = exponent >= 0 ? digits + "0".repeat(exponent) : digits.slice(0, wholeDigits);
  return `${m[1] === "-" ? "-" : ""}${integer}`;
}

/** Python-style repr of a JSON value: what Django compares by (`str()`), and what messages print. */
export function pyRepr(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return `'${v.replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `'${k}': ${pyRepr(x)}`).join(", ")}}`;
  return String(v);
}
