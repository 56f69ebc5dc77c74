// The address family of a cidr/ip field: `{value, label}` in the full form, the number nested.
import { storedColumn, type IpFamilyField } from "../descriptor.js";
import { col } from "../query/sql.js";
import type { RuntimeFieldKind } from "./types.js";

export const ipFamily: RuntimeFieldKind<IpFamilyField> = {
  read: (f, { index, model, alias }) => `family(${col(alias, storedColumn(index.field(model, f.from)!)!)})`,
  json(f, ctx) {
    const family = ipFamily.read!(f, ctx);
    return ctx.shape === "full"
      ? `CASE WHEN ${family} IS NULL THEN 'null' ELSE '{"value":' || ${family} || ',"label":"IPv' || ${family} || '"}' END`
      : `coalesce(${family}::text, 'null')`;
  },
  render: (_f, { shape }) => (shape === "full" ? (v) => (v == null ? null : { value: v, label: `IPv${v}` }) : (v) => v),
  options: { type: () => "field" },
};
