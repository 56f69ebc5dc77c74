// Database refusals that are the client's doing wherever they arise: text PostgreSQL cannot
// store. A NUL byte can reach a statement through any query parameter, path segment or body
// field a profile or hook reads itself (filters and the store's write fields refuse it by
// name first); rather than guard each, the profiles answer the database's refusal as the
// client's 400.

/** character_not_in_repertoire (a NUL byte in text), untranslatable_character (`\u0000` in JSON). */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/** Whether `err` is the database refusing text it cannot store. */
export function unstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNSTORABLE_TEXT.has(code);
}
