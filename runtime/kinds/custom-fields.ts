// The custom-fields feature: a JSON object column keyed by custom-field name. A read shows
// every field defined for the model (value or null) from the definitions in the same
// statement; a write merges the given keys into the stored ones and is judged as Nautobot's
// CustomFieldModel.clean judges it, once the other fields are valid.
import type { CustomFieldsField } from "../descriptor.js";
import { ValidationError } from "../errors.js";
import { definitionsOf, loadDefinitions, type CustomFieldDefinition } from "../custom-fields/definitions.js";
import { cleanData, defaults } from "../custom-fields/values.js";
import { col, literal } from "../query/sql.js";
import { FieldProblem, isPlainObject, type RuntimeFieldKind, type WriteContext } from "./types.js";

/** What a write of the field found, for the check that follows the other fields'. */
const pending = new WeakMap<WriteContext, { defs: CustomFieldDefinition[]; data: Record<string, unknown> }>();

function judge(f: CustomFieldsField, ctx: WriteContext, defs: CustomFieldDefinition[], data: Record<string, unknown>): void {
  const clean = cleanData(defs, data);
  if ("error" in clean) throw new ValidationError({ __all__: [clean.error] });
  ctx.row[f.column] = JSON.stringify(clean.data);
}

export const customFields: RuntimeFieldKind<CustomFieldsField> = {
  read(f, { alias, model }) {
    const d = f.definitions;
    if (!d) return `'{}'::json`;
    return `(SELECT coalesce(json_object_agg(d.name, ${col(alias, f.column)} -> d.name ORDER BY d.weight, d.name), '{}'::json) ${definitionsOf(d, literal(model.key))})`;
  },
  async write(f, value, ctx) {
    if (!isPlainObject(value)) throw new FieldProblem("Expected a dictionary of custom field values.");
    const defs = f.definitions ? await loadDefinitions(ctx.db, f.definitions, ctx.model.key) : [];
    const stored = ctx.id === null
      ? {}
      : ((await ctx.db(ctx.model.table).where("id", ctx.id).first(f.column))?.[f.column] ?? {}) as Record<string, unknown>;
    pending.set(ctx, { defs, data: { ...stored, ...value } });
  },
  checksOwnValue: true,
  async onCreate(f, ctx) {
    const given = pending.get(ctx);
    if (given) return judge(f, ctx, given.defs, given.data);
    const defs = f.definitions ? await loadDefinitions(ctx.db, f.definitions, ctx.model.key) : [];
    judge(f, ctx, defs, defaults(defs));
  },
  onUpdate(f, ctx) {
    const given = pending.get(ctx);
    if (given) judge(f, ctx, given.defs, given.data);
  },
  options: { type: () => "field" },
};

