// A generic reference: the row its type and id columns name, as that model's nested form,
// picked in SQL by the type column (one sub-select per possible model, one evaluated per row).
import type { GenericField } from "../descriptor.js";
import { scalarJson } from "../query/json-text.js";
import { col, literal } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const generic: RuntimeFieldKind<GenericField> = {
  read(f, ctx) {
    const type = col(ctx.alias, f.typeColumn);
    const id = col(ctx.alias, f.idColumn);
    if (!ctx.canNest) return id;
    const branches = f.targets.map((t) =>
      `WHEN ${literal(t)} THEN ${ctx.nestedObject(ctx.index.model(t), (a) => `${a}.id = ${id}`)}`);
    return `CASE WHEN ${id} IS NULL THEN NULL ELSE json_build_object('type', ${type}, 'object', CASE ${type} ${branches.join(" ")} END) END`;
  },
  json(f, ctx) {
    const type = col(ctx.alias, f.typeColumn);
    const id = col(ctx.alias, f.idColumn);
    if (!ctx.canNest) return scalarJson(id);
    const branches: string[] = [];
    for (const t of f.targets) {
      const json = ctx.nestedObjectJson(ctx.index.model(t), (a) => `${a}.id = ${id}`);
      if (json === undefined) return undefined;
      branches.push(`WHEN ${literal(t)} THEN ${json}`);
    }
    return `CASE WHEN ${id} IS NULL THEN 'null' ELSE CASE ${type} ${branches.join(" ")} ELSE 'null' END END`;
  },
  render(f, ctx) {
    if (!ctx.canNest) return (v) => v ?? null;
    const renderers = new Map(f.targets.map((t) => [t, ctx.nestedRenderer(ctx.index.model(t))]));
    return (v, rctx) => {
      const ref = v as { type: string; object: Record<string, unknown> | null } | null;
      if (!ref?.object) return null;
      return renderers.get(ref.type)!(ref.object, rctx);
    };
  },
  options: { type: () => "field" },
};
