// The mutations of a DRF-style API's GraphQL schema: per model the REST write operations it
// allows, as `create_`, `update_` and `delete_` of one object and of a list, and the input
// type they take. An input type has the fields a REST write accepts (the write validators'
// own, from each kind's write schema), every one optional: the server checks what is required
// and words what is wrong as REST does, rather than GraphQL refusing the document first. The
// `@write` directive tells the runtime which model and operation a field is. Pure: gives text.
import type { IrApi, IrModel } from "../ir/index.js";
import { inVersion, type FieldDescriptor } from "../../runtime/descriptor.js";
import { kindOf } from "../kinds/index.js";
import type { Schema } from "./openapi/schemas.js";
import type { graphqlNames } from "../ir/names.js";

type Names = ReturnType<typeof graphqlNames>;

export const MUTATION_PRELUDE = `"""A write of \`model\`: \`action\` (create, update, delete) of one object, or of a list when \`many\`."""
directive @write(model: String!, action: String!, many: Boolean!) on FIELD_DEFINITION

"""A related object, as a REST write takes one: its id, or an object of attributes that identify exactly one."""
scalar Lookup
`;

const INT_MAX = 2_147_483_647;

/** The GraphQL input type of a value a write schema describes; null for what JSON cannot carry (an uploaded file). */
function inputOf(s: Schema): string | null {
  // An `anyOf` beside a type narrows the type (an email or blank); without one, it is the choice of types.
  const any = s.type === undefined ? s.anyOf as Schema[] | undefined : undefined;
  if (any) {
    const kept = any.filter((x) => x.type !== "null");
    return kept.length === 1 ? inputOf(kept[0]) : "GenericScalar";
  }
  const types = (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []).filter((t) => t !== "null");
  if (s.format === "binary") return null;
  if (Array.isArray(s.enum)) return s.enum.every((v) => typeof v === "string" || v === null) ? "String" : "GenericScalar";
  if (types.length === 2 && types.includes("string") && types.includes("number")) return "Decimal";
  if (types.length !== 1) return "GenericScalar";
  switch (types[0]) {
    case "string": return "String";
    case "boolean": return "Boolean";
    case "number": return "Float";
    case "integer": return typeof s.maximum === "number" && s.maximum > INT_MAX ? "BigInteger" : "Int";
    case "array": {
      const item = s.items ? inputOf(s.items as Schema) : "GenericScalar";
      return item ? `[${item}]` : null;
    }
    default: return "GenericScalar";
  }
}

/** A writable field's input type: related objects as lookups, anything else from its write schema. */
function fieldInput(f: FieldDescriptor): string | null {
  switch (f.kind) {
    case "fk": case "treeParent": return "Lookup";
    case "tags": return "[Lookup]";
    case "m2m": return f.bySlug ? "[String]" : "[Lookup]";
    default: {
      const schema = kindOf(f).writeSchema?.(f, { idOf: () => ({ type: "string" }) });
      return schema ? inputOf(schema) : null;
    }
  }
}

const describe = (text: string | undefined) => (text ? `  ${JSON.stringify(text.replace(/\s+/g, " ").trim())}\n` : "");

/** A model's input type: `id` (the object a bulk update changes) and the fields REST writes in the API's latest version, the one GraphQL writes in. */
function inputType(api: IrApi, m: IrModel, names: Names): string {
  const { supported } = api.versions;
  const version = supported[supported.length - 1];
  const lines = [`  "The object to change, in a bulk update (elsewhere ignored, as REST ignores it)."\n  id: ID`];
  for (const f of m.fields) {
    if (f.readOnly || f.name === "id" || !inVersion(f, version, supported)) continue;
    const type = fieldInput(f);
    if (type) lines.push(`${describe(f.description)}  ${f.name}: ${type}`);
  }
  return `"""What a write of ${m.name} takes: the fields a REST write of it takes, each optional here and checked by the server."""\ninput ${names.input(m)} {\n${lines.join("\n")}\n}\n`;
}

/** The `Mutation` type and the input types it takes; null when no model is written. */
export function emitMutations(api: IrApi, models: IrModel[], names: Names): { mutation: string; inputs: string[] } | null {
  const fields: string[] = [];
  const inputs: string[] = [];
  for (const m of models) {
    const ops = new Set(m.operations);
    if (!ops.has("create") && !ops.has("update") && !ops.has("delete")) continue;
    const type = names.type(m);
    const input = names.input(m);
    const single = names.single(m) === names.list(m) ? null : names.single(m);
    const write = (action: string, many: boolean) => `@write(model: ${JSON.stringify(m.key)}, action: ${JSON.stringify(action)}, many: ${many})`;
    const list = names.list(m);
    if (ops.has("create") || ops.has("update")) inputs.push(inputType(api, m, names));
    if (ops.has("create")) {
      if (single) fields.push(`  ${names.mutation("create", single)}(input: ${input}!): ${type}! ${write("create", false)}`);
      fields.push(`  ${names.mutation("create", list)}(input: [${input}!]!): [${type}!]! ${write("create", true)}`);
    }
    if (ops.has("update")) {
      if (single) fields.push(`  ${names.mutation("update", single)}(id: ID!, input: ${input}!): ${type}! ${write("update", false)}`);
      fields.push(`  ${names.mutation("update", list)}(input: [${input}!]!): [${type}!]! ${write("update", true)}`);
    }
    if (ops.has("delete")) {
      if (single) fields.push(`  ${names.mutation("delete", single)}(id: ID!): ID! ${write("delete", false)}`);
      fields.push(`  ${names.mutation("delete", list)}(ids: [ID!]!): [ID!]! ${write("delete", true)}`);
    }
  }
  if (!fields.length) return null;
  return { mutation: `type Mutation {\n${fields.join("\n")}\n}\n`, inputs };
}
