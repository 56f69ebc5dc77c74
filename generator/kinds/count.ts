// A count of rows pointing here: counted by a sub-select when read or, `stored`, kept in a
// column of the model's table by triggers on the counted rows.
import type { CountField } from "../../runtime/descriptor.js";
import type { CountField as CountSpec, FieldSpec, ModelSpec, SqlBlock } from "../dsl/index.js";
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
    if (f.stored) {
      const [app, model, link] = f.of.split(".");
      const kind = ctx.resolve(`${app}.${model}`)?.spec.fields[link]?.kind;
      if (f.descendants || (kind !== "fk" && kind !== "m2m")) ctx.err(`count "stored" counts through a foreign key or many-to-many link, without "descendants"`);
      const longest = `${countFunction(tableName(ctx.model.app, ctx.model.name), f.column ?? ctx.name)}_truncate`;
      if (longest.length > 63) ctx.err(`count "stored": trigger name ${longest} is longer than PostgreSQL's 63 characters`);
    }
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
    return { ...common, kind: "count", readOnly: true, count: { ...count, descendants: f.descendants ?? false, ...(f.stored ? { stored: f.column ?? ctx.name } : {}) } };
  },
};

export const count: GeneratorFieldKind<CountField> = {
  schema(f, { table }) {
    if (f.count.stored) table.columns[f.count.stored] = { type: "integer", nullable: false, default: "0" };
  },
  readSchema: () => ({ type: "integer", readOnly: true }),
};

/** The trigger function keeping a stored count (its triggers are named after it). */
function countFunction(table: string, column: string): string {
  return `armature_count_${table}_${column}`;
}

/**
 * The triggers keeping the stored count `f` of rows of `table`: per statement on the counted
 * table, the rows added count one more for the row they point at and the rows removed one
 * less, updated in id order (so statements touching the same rows take their locks in one
 * order); then the counts of the rows already there.
 */
export function storedCountSql(table: string, f: CountField): SqlBlock {
  const { table: counted, column: link, stored } = f.count;
  const fn = countFunction(table, stored!);
  // Rows of a transition table, counted by the row they point at (negated for rows removed).
  const counts = (rows: string, sign: string) => `SELECT "${link}" AS id, ${sign}count(*) AS n FROM ${rows} WHERE "${link}" IS NOT NULL GROUP BY 1`;
  const apply = (deltas: string) => `    FOR r IN ${deltas} LOOP\n      UPDATE "${table}" SET "${stored}" = "${stored}" + r.n WHERE id = r.id;\n    END LOOP;`;
  const trigger = (name: string, event: string, tables: string) =>
    `DROP TRIGGER IF EXISTS "${fn}_${name}" ON "${counted}";\n` +
    `CREATE TRIGGER "${fn}_${name}" AFTER ${event} ON "${counted}"${tables} FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"();`;
  return {
    up: `CREATE OR REPLACE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "${table}" SET "${stored}" = 0 WHERE "${stored}" <> 0;
  ELSIF TG_OP = 'INSERT' THEN
${apply(`${counts("armature_added", "")} ORDER BY 1`)}
  ELSIF TG_OP = 'DELETE' THEN
${apply(`${counts("armature_removed", "-")} ORDER BY 1`)}
  ELSE
${apply(`SELECT id, sum(n) AS n FROM (${counts("armature_added", "")} UNION ALL ${counts("armature_removed", "-")}) d GROUP BY id HAVING sum(n) <> 0 ORDER BY id`)}
  END IF;
  RETURN NULL;
END $$;
${trigger("insert", "INSERT", " REFERENCING NEW TABLE AS armature_added")}
${trigger("update", "UPDATE", " REFERENCING OLD TABLE AS armature_removed NEW TABLE AS armature_added")}
${trigger("delete", "DELETE", " REFERENCING OLD TABLE AS armature_removed")}
${trigger("truncate", "TRUNCATE", "")}
UPDATE "${table}" t SET "${stored}" = (SELECT count(*) FROM "${counted}" c WHERE c."${link}" = t.id);`,
    down: ["insert", "update", "delete", "truncate"].map((name) => `DROP TRIGGER IF EXISTS "${fn}_${name}" ON "${counted}";`).join("\n") +
      `\nDROP FUNCTION IF EXISTS "${fn}"();`,
  };
}
