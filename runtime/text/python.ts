// How Python, and so DRF's messages, name and print JSON values: `dict`, `str`,
// `{'name': 'x'}`. Used where our errors repeat the original's words.

/** Python's name for a JSON value's type, as DRF's messages name it. */
export function pyType(v: unknown): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "dict";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v === "string" ? "str" : typeof v === "boolean" ? "bool" : typeof v;
}

/** Python-style repr of an attribute dictionary, as DRF clients see it in messages. */
export function pyRepr(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return `'${v.replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `'${k}': ${pyRepr(x)}`).join(", ")}}`;
  return String(v);
}
