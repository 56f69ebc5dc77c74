// A statement written with its values in its text. A list whose rows depend on the filter's
// values (ranges, containment, patterns) chooses and counts them by such statements, run by
// armature_chosen/armature_counted inside its own statement (runtime/store.ts `chosenApart`):
// PostgreSQL plans them for those values on every request, and plans the long statement that
// writes the page's JSON only once.
import pg from "pg";
import utils from "pg/lib/utils.js";

/**
 * `compiled` (knex's SQL: a `?` per value, `\?` a question mark) with each value written in
 * as pg would have sent it, as a literal: a literal's type is left to its context, as an
 * untyped parameter's is. Undefined where a value is not one pg sends as text (bytes), or the
 * values do not match the placeholders.
 */
export function withValues(compiled: { sql: string; bindings: readonly unknown[] }): string | undefined {
  let n = 0;
  let unwritable = false;
  const sql = compiled.sql.replace(/(\\*)\?/g, (_match, escapes: string) => {
    if (escapes.length % 2) return "?";
    if (n >= compiled.bindings.length) {
      unwritable = true;
      return "?";
    }
    const text = utils.prepareValue(compiled.bindings[n++]);
    if (text === null) return "NULL";
    if (typeof text !== "string") unwritable = true;
    return typeof text === "string" ? pg.escapeLiteral(text) : "NULL";
  });
  return unwritable || n !== compiled.bindings.length ? undefined : sql;
}
