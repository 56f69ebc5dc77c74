// Computed fields: the definitions for the model (slug, template, fallback) are read in the
// same statement as the objects (an uncorrelated sub-select, which PostgreSQL runs once per
// statement, so a definition made a moment ago on any instance counts), and each template is
// rendered against the object as this response shows it (`obj`: its fields, related objects
// in their nested form). A template that fails gives the field's fallback value, and so does
// every template once a response has spent its rendering budget, so a page of objects under
// costly templates still answers in bounded time. Where no computed field is defined for the
// model, which the plan assumes and each statement re-checks (ReadContext.assume), the value
// is the empty object PostgreSQL can write itself: the answer passes through as JSON text.
import type { ComputedFieldsField } from "../descriptor.js";
import { ident, literal } from "../query/sql.js";
import { render } from "../templates/jinja.js";
import type { RuntimeFieldKind } from "./types.js";

type Definition = [slug: string, template: string, fallback: string];

/** The most milliseconds one response spends rendering computed fields. */
const RESPONSE_BUDGET = 1000;

/** Milliseconds spent so far, by the response's render context (one per request). */
const spent = new WeakMap<object, number>();

/** The definitions rendered against `obj` (the object as a response shows it), within the budget of the response `rctx` stands for. */
export function renderComputed(definitions: Definition[], rctx: object, obj: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [slug, template, fallback] of definitions) {
    const used = spent.get(rctx) ?? 0;
    if (used > RESPONSE_BUDGET) {
      out[slug] = fallback;
      continue;
    }
    const started = performance.now();
    const rendered = render(template, { obj });
    spent.set(rctx, used + performance.now() - started);
    out[slug] = rendered.ok ? rendered.value : fallback;
  }
  return out;
}

export const computedFields: RuntimeFieldKind<ComputedFieldsField> = {
  read(f) {
    const d = f.definitions;
    const c = (name: string) => `cfd.${ident(name)}`;
    return `(SELECT coalesce(json_agg(json_build_array(${c(d.slug)}, ${c(d.template)}, ${c(d.fallback)}) ORDER BY ${c(d.weight)}, ${c(d.slug)}), '[]'::json) ` +
      `FROM ${ident(d.table)} cfd WHERE ${c(d.contentType)} = ${literal(f.contentType)})`;
  },
  json(f, ctx) {
    const d = f.definitions;
    const defined = `(SELECT CASE WHEN EXISTS (SELECT 1 FROM ${ident(d.table)} cfd WHERE cfd.${ident(d.contentType)} = ${literal(f.contentType)}) THEN 'defined' ELSE '' END)`;
    return ctx.assume(`computed-fields:${f.contentType}`, defined) === "" ? "'{}'" : undefined;
  },
  render: () => (value, rctx, _row, shown) => renderComputed((typeof value === "string" ? JSON.parse(value) : value ?? []) as Definition[], rctx, shown),
  options: { type: () => "field" },
};
