// The address family of a cidr/ip field: `{value, label}` in the full form, the bare number nested.
import type { IpFamilyField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

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
