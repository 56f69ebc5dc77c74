// The address family of a cidr/ip field: `{value, label}` in the full form, the bare number nested.
import type { IpFamilyField } from "../../runtime/descriptor.js";
import type { IpFamilyField as IpFamilySpec } from "../dsl/index.js";
import type { GeneratorFieldKind, SpecRules } from "./types.js";

export const ipFamilySpec: SpecRules<IpFamilySpec, IpFamilyField> = {
  check(f, { fields, err }) {
    const src = fields[f.from];
    if (!src || src.kind !== "scalar" || (src.type !== "cidr" && src.type !== "ip")) err(`ipFamily "from" must name a cidr or ip field, not "${f.from}"`);
  },
  build: (f, common) => ({ ...common, kind: "ipFamily", readOnly: true, from: f.from }),
};

export const ipFamily: GeneratorFieldKind<IpFamilyField> = {
  readSchema: (_f, { nested }) => (nested
    ? { type: "integer", enum: [4, 6] }
    : {
      type: "object",
      properties: { value: { type: "integer", enum: [4, 6] }, label: { type: "string", enum: ["IPv4", "IPv6"] } },
      required: ["value", "label"],
      additionalProperties: false,
    }),
  // One `family` filter per model, whichever address field it reads.
  filters: (f, add) => add("family", { kind: "network", field: f.from, lookup: "exact", network: "family" }),
};
