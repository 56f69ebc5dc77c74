// The GraphQL schema of an API, built once from the SDL the generator emitted, and what each
// field of it is read from: the directives the SDL carries (a type's model, a reverse list's
// link, a query's model, a mutation's model and action, an enum value's stored choice) tied to
// the API's descriptors.
import { buildASTSchema, GraphQLEnumType, GraphQLObjectType, parse, type DocumentNode, type GraphQLField, type GraphQLSchema } from "graphql";
import type { ConstDirectiveNode } from "graphql";
import type { ComputedFieldsField, FieldDescriptor, ModelDescriptor } from "../descriptor.js";
import type { ModelIndex } from "../models.js";

/** How one GraphQL field is read. */
export type FieldSource =
  | { kind: "field"; field: FieldDescriptor }
  | { kind: "reverse"; model: ModelDescriptor; link: FieldDescriptor }
  | { kind: "rows"; model: ModelDescriptor; many: boolean }
  /** A custom field: the value under `key` in the JSON `column`, as JSON text when `json`. */
  | { kind: "custom"; column: string; key: string; json: boolean }
  /** A relationship's peers of an object at its `side` (either side when `symmetric`). */
  | { kind: "relationship"; id: string; side: "source" | "destination"; symmetric: boolean; peer: ModelDescriptor }
  /** A computed field (one definition: slug, template, fallback) of the objects the model's `field` renders them for. */
  | { kind: "computedField"; field: ComputedFieldsField; definition: [string, string, string] }
  /** An SQL expression over the row, `{row}` standing for its alias. */
  | { kind: "sql"; expr: string }
  /** A mutation: `action` of one object of `model`, or of a list when `many`. */
  | { kind: "write"; model: ModelDescriptor; action: WriteAction; many: boolean };

/** What a mutation does. */
export type WriteAction = "create" | "update" | "delete";

export interface GraphqlApi {
  schema: GraphQLSchema;
  /** The SDL the schema was built from, parsed: what definitions read at run time extend. */
  document: DocumentNode;
  /** The model each object type stands for, by type name. */
  models: Map<string, ModelDescriptor>;
  /** How each field is read, by `<Type>.<field>`. */
  sources: Map<string, FieldSource>;
  /** The stored value → enum value name of each choice enum, by enum name. */
  choices: Map<string, Map<string, string>>;
}

const argOf = (d: ConstDirectiveNode | undefined, name: string): string | boolean | undefined => {
  const v = d?.arguments?.find((a) => a.name.value === name)?.value;
  return v?.kind === "StringValue" ? v.value : v?.kind === "BooleanValue" ? v.value : undefined;
};
const directive = (node: { directives?: readonly ConstDirectiveNode[] } | undefined | null, name: string) =>
  node?.directives?.find((d) => d.name.value === name);

export function buildGraphqlApi(sdl: string, index: ModelIndex): GraphqlApi {
  // Without locations: each would keep a token of the SDL, and every token its neighbours, the
  // whole text as tens of megabytes of tokens, for as long as the schema lives.
  const document = parse(sdl, { noLocation: true });
  const schema = buildASTSchema(document);
  const models = new Map<string, ModelDescriptor>();
  const sources = new Map<string, FieldSource>();
  const choices = new Map<string, Map<string, string>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type instanceof GraphQLEnumType && !type.name.startsWith("__")) {
      const stored = new Map<string, string>();
      for (const v of type.getValues()) {
        const value = argOf(directive(v.astNode, "choice"), "value");
        if (typeof value === "string") stored.set(value, v.name);
      }
      choices.set(type.name, stored);
    }
    if (!(type instanceof GraphQLObjectType)) continue;
    const key = argOf(directive(type.astNode, "model"), "key");
    const m = typeof key === "string" ? index.model(key) : undefined;
    if (m) models.set(type.name, m);
    for (const f of Object.values(type.getFields()) as Array<GraphQLField<unknown, unknown>>) {
      const rows = directive(f.astNode, "rows");
      const reverse = directive(f.astNode, "reverse");
      const sql = argOf(directive(f.astNode, "sql"), "expr");
      const write = directive(f.astNode, "write");
      if (write) {
        sources.set(`${type.name}.${f.name}`, { kind: "write", model: index.model(argOf(write, "model") as string), action: argOf(write, "action") as WriteAction, many: argOf(write, "many") === true });
      } else if (typeof sql === "string") {
        sources.set(`${type.name}.${f.name}`, { kind: "sql", expr: sql });
      } else if (rows) {
        sources.set(`${type.name}.${f.name}`, { kind: "rows", model: index.model(argOf(rows, "model") as string), many: argOf(rows, "many") === true });
      } else if (reverse) {
        const source = index.model(argOf(reverse, "model") as string);
        sources.set(`${type.name}.${f.name}`, { kind: "reverse", model: source, link: index.field(source, argOf(reverse, "field") as string)! });
      } else if (m) {
        const field = index.field(m, f.name);
        if (field) sources.set(`${type.name}.${f.name}`, { kind: "field", field });
      }
    }
  }
  return { schema, document, models, sources, choices };
}
