// A count of rows pointing here: nothing stored, counted by a sub-select when read.
import type { CountField } from "../../runtime/descriptor.js";
import type { CountField as CountSpec, FieldSpec, ModelSpec } from "../dsl/index.js";
import { FEATURE_FIELDS, fkColumn, m2mColumns, m2mTable, tableName, TAG_ASSIGNMENT_COLUMNS, tagAssignmentTable } from "../ir/names.js";
import type { GeneratorFieldKind, SpecCheckContext, SpecRules } from "./types.js";
import { inScope } from "./content-type.js";

/**
 * `of` ("app.Model.field") must name a foreign key pointing at this model (or, on a tree, the
 * parent link); with `m2m`, a many-to-many link to it may be named too.
 */
export function checkPointsHere(kind: string, of: string, { model: m, resolve, err }: SpecCheckContext, m2m = false): void {
  const parts = of.split(".");
  if (parts.length !== 3) return err(`${kind} "of" must be "app.Model.field", not "${of}"`);
  const target = resolve(`${parts[0]}.${parts[1]}`);
  if (!target) return err(`${kind} "of" names unknown model "${parts[0]}.${parts[1]}"`);
  const fk = target.spec.fields[parts[2]];
  const here = `${m.app}.${m.name}`;
  const pointsHere = ((fk?.kind === "fk" || (m2m && fk?.kind === "m2m")) && fk.target === here) ||
    (m2m && fk?.kind === "generic" && mayName(target.spec.fields[fk.type], m));
  const treeParent = parts[2] === FEATURE_FIELDS.treeParent && target.spec.features?.includes("tree") && target.spec === m;
  if (!pointsHere && !treeParent) {
    err(`${kind} "of" field "${of}" is not a ${m2m ? "foreign key, many-to-many link or generic reference" : "foreign key"} to ${here}`);
  }
}

/** Whether a generic reference's contentType field may name model `m`. */
function mayName(type: FieldSpec | undefined, m: ModelSpec): boolean {
  if (type?.kind !== "contentType") return false;
  return type.feature ? inScope(m, type.feature) : !!type.models?.includes(`${m.app}.${m.name}`);
}

/** The column a field of `owner` is stored in. */
function columnOf(owner: ModelSpec, name: string): string {
  return owner.fields[name].column ?? name;
}

export const countSpec: SpecRules<CountSpec, CountField> = {
  check(f, ctx) {
    const { api, model: m } = ctx;
    if (f.of === FEATURE_FIELDS.tags) {
      if (api.tagModel !== `${m.app}.${m.name}`) ctx.err(`count "of": "tags" counts the objects carrying a tag, on the api's tagModel only`);
    } else checkPointsHere("count", f.of, ctx, true);
    // Descendants are found through this model's own parent links.
    if (f.descendants && !ctx.model.features?.includes("tree")) ctx.err(`count "descendants" needs the "tree" feature on ${ctx.model.name}`);
  },
  build(f, common, ctx) {
    const { byRef, table: own } = ctx;
    // Objects of any model carrying this tag: rows of the tags feature's assignment table.
    if (f.of === FEATURE_FIELDS.tags) {
      return { ...common, kind: "count", readOnly: true, count: { table: tagAssignmentTable(own), column: TAG_ASSIGNMENT_COLUMNS.target, descendants: false } };
    }
    const [app, model, linkName] = f.of.split(".");
    const table = tableName(app, model);
    // Links through a join table are counted there: one row per linked pair.
    const link = byRef.get(`${app}.${model}`)?.fields[linkName];
    const count = link?.kind === "m2m"
      ? { table: m2mTable(table, linkName), column: m2mColumns(byRef.get(link.target)!.name).target }
      : link?.kind === "generic"
        ? { table, column: columnOf(byRef.get(`${app}.${model}`)!, link.id), typed: { column: columnOf(byRef.get(`${app}.${model}`)!, link.type), key: ctx.model } }
        : { table, column: fkColumn(linkName) };
    return { ...common, kind: "count", readOnly: true, count: { ...count, descendants: f.descendants ?? false } };
  },
};

export const count: GeneratorFieldKind<CountField> = {
  readSchema: () => ({ type: "integer", readOnly: true }),
};
