// The GraphQL schema of an API, built once from the SDL the generator emitted, and what each
// field of it is read from: the directives the SDL carries (a type's model, a reverse list's
// link, a query's model, a mutation's model and action, an enum value's stored choice) tied to
// the API's descriptors.
import { buildASTSchema, GraphQLEnumType, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType, Kind, parse, print, type BuildSchemaOptions, type DefinitionNode, type GraphQLArgument, type DocumentNode, type GraphQLField, type ObjectTypeDefinitionNode, type GraphQLSchema, type TypeNode } from "graphql";
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
  /**
   * The SDL the schema was built from, read from its file and parsed again: what definitions
   * read at run time extend. The schema keeps none of its syntax tree (some 11 MB for the
   * inventory's), so it is made again for the few rebuilds that need it.
   */
  document: () => DocumentNode;
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

/** The API of the SDL `read` gives (read again whenever `document` is asked). */
export function buildGraphqlApi(read: () => string, index: ModelIndex, hidden: ReadonlySet<string> = new Set()): GraphqlApi {
  // Without locations: each would keep a token of the SDL, and every token its neighbours, the
  // whole text as tens of megabytes of tokens, for as long as the schema lives.
  const document = () => without(ownStrings(parsedInParts(read())), hidden);
  const schema = builtSchema(document());
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
  return { schema: compacted(schema), document, models, sources, choices };
}

/**
 * The schema of `document`, each list of arguments that fields repeat (a model's filters, on
 * its query and on every reverse list reaching it) made once: the fields after the first
 * that take it are built without arguments and given the first's list. Built in full, the
 * inventory's 28,280 arguments were made and then mostly dropped as `compacted` shared them;
 * the building's high-water mark of resident memory stays with the process.
 */
export function builtSchema(document: DocumentNode, options?: BuildSchemaOptions): GraphQLSchema {
  const first = new Map<string, { type: string; field: string }>();
  const sharing: Array<{ type: string; field: string; from: { type: string; field: string } }> = [];
  const definitions = document.definitions.map((d) => {
    if ((d.kind !== Kind.OBJECT_TYPE_DEFINITION && d.kind !== Kind.INTERFACE_TYPE_DEFINITION) || !d.fields) return d;
    return {
      ...d,
      fields: d.fields.map((f) => {
        if (!f.arguments?.length) return f;
        const key = f.arguments.map((a) => print(a)).join("\n");
        const from = first.get(key);
        if (!from) {
          first.set(key, { type: d.name.value, field: f.name.value });
          return f;
        }
        sharing.push({ type: d.name.value, field: f.name.value, from });
        return { ...f, arguments: [] };
      }),
    };
  });
  const schema = buildASTSchema({ ...document, definitions }, options);
  const fieldOf = (at: { type: string; field: string }) => (schema.getType(at.type) as GraphQLObjectType | GraphQLInterfaceType).getFields()[at.field];
  for (const at of sharing) fieldOf(at).args = fieldOf(at.from).args;
  return schema;
}

/** Characters of SDL parsed at a time, at least. */
const PART = 32768;

/**
 * The document of `sdl`, parsed a part at a time: graphql-js's lexer links every token to the
 * one before it, so a document parsed whole holds all of its tokens until the parse ends, some
 * 13 MB for the inventory's 0.9 MB of SDL, a high-water mark of resident memory the process
 * keeps. A part ends at a blank line outside any string, brace or parenthesis and not after a
 * description: between two definitions.
 */
export function parsedInParts(sdl: string, part = PART): DocumentNode {
  const definitions: DefinitionNode[] = [];
  let start = 0;
  let depth = 0;
  // A string last (a description): the definition it describes follows.
  let described = false;
  for (let at = 0; at < sdl.length; at++) {
    const c = sdl[at];
    if (c === "#") at = endOf(sdl, "\n", at + 1) - 1;
    else if (c === '"') {
      at = sdl.startsWith('"""', at) ? endOfBlockString(sdl, at + 3) + 2 : endOfString(sdl, at + 1);
      described = true;
    } else if (c === "\n" && depth === 0 && !described && sdl[at + 1] === "\n" && at - start >= part) {
      definitions.push(...parse(sdl.slice(start, at), { noLocation: true }).definitions);
      start = at + 1;
    } else if (c !== " " && c !== "\n" && c !== "\t" && c !== "\r" && c !== ",") {
      described = false;
      if (c === "{" || c === "(") depth++;
      else if (c === "}" || c === ")") depth--;
    }
  }
  if (sdl.slice(start).trim()) definitions.push(...parse(sdl.slice(start), { noLocation: true }).definitions);
  return { kind: Kind.DOCUMENT, definitions };
}

/** Where `end` is next found in `text` from `from` (the text's end if nowhere). */
function endOf(text: string, end: string, from: number): number {
  const found = text.indexOf(end, from);
  return found < 0 ? text.length : found;
}

/** Where the `"""` closing a block string whose text starts at `from` begins, past escaped ones (`\"""`). */
function endOfBlockString(text: string, from: number): number {
  let at = endOf(text, '"""', from);
  while (at < text.length && text[at - 1] === "\\") at = endOf(text, '"""', at + 3);
  return at;
}

/** The index of the quote closing a string whose text starts at `from`, past escaped characters. */
function endOfString(text: string, from: number): number {
  let at = from;
  while (at < text.length && text[at] !== '"' && text[at] !== "\n") at += text[at] === "\\" ? 2 : 1;
  return at;
}

/**
 * V8 gives a slice of 13 characters or more of a string as a view into it: a description, a
 * name or a directive's argument taken from the SDL kept the whole text (1.8 MB) alive for as
 * long as the schema or the read plans built from it live. Each such string of `node` (the
 * parsed document) is made a string of its own.
 */
function ownStrings<T>(node: T): T {
  if (Array.isArray(node)) {
    for (let n = 0; n < node.length; n++) node[n] = ownStrings(node[n]);
  } else if (node && typeof node === "object") {
    const fields = node as Record<string, unknown>;
    // A node's kind is one of graphql-js's own constants, never cut from the text.
    for (const key of Object.keys(fields)) if (key !== "kind") fields[key] = ownStrings(fields[key]);
  } else if (typeof node === "string" && node.length >= 13) {
    return Buffer.from(node, "utf8").toString("utf8") as T;
  }
  return node;
}

/**
 * `schema` made smaller in memory, once its directives are read: without the syntax nodes it
 * was built from (validating and running queries never reads them, and they held half its
 * memory), and with one list of arguments for all the fields that take the same. A model's
 * filters are the arguments of its query and of every reverse list that reaches it: the
 * inventory's 2,082 fields took 28,280 arguments, of 358 different lists, and their
 * objects were three quarters of what the schema kept (24.7 MB of heap, then 6.7 MB).
 * A schema is never changed once built, so fields may share them.
 */
export function compacted(schema: GraphQLSchema): GraphQLSchema {
  const argumentLists = new Map<string, readonly GraphQLArgument[]>();
  schema.astNode = undefined;
  schema.extensionASTNodes = [];
  for (const d of schema.getDirectives()) {
    d.astNode = undefined;
    for (const a of d.args) a.astNode = undefined;
  }
  for (const type of Object.values(schema.getTypeMap())) {
    type.astNode = undefined;
    type.extensionASTNodes = [];
    if (type instanceof GraphQLEnumType) for (const v of type.getValues()) v.astNode = undefined;
    if (type instanceof GraphQLInputObjectType) for (const f of Object.values(type.getFields())) f.astNode = undefined;
    if (!(type instanceof GraphQLObjectType || type instanceof GraphQLInterfaceType)) continue;
    for (const f of Object.values(type.getFields()) as Array<GraphQLField<unknown, unknown>>) {
      f.astNode = undefined;
      if (!f.args.length) continue;
      for (const a of f.args) a.astNode = undefined;
      const key = JSON.stringify(f.args.map((a) => [a.name, String(a.type), a.defaultValue ?? null, a.description ?? null, a.deprecationReason ?? null, a.extensions]));
      const same = argumentLists.get(key);
      if (same) f.args = same;
      else argumentLists.set(key, f.args);
    }
  }
  return schema;
}

/**
 * The SDL without the models of `hidden` (a disabled app's): their types, the queries that list
 * them, the mutations that write them and their input types, and the reverse lists that reach
 * them. Nothing else names them: no core model links to an app's model (the generator refuses it).
 */
function without(document: DocumentNode, hidden: ReadonlySet<string>): DocumentNode {
  if (!hidden.size) return document;
  const named = (node: { directives?: readonly ConstDirectiveNode[] }) => {
    const d = directive(node, "model") ?? directive(node, "rows") ?? directive(node, "reverse") ?? directive(node, "write");
    const key = argOf(d, d?.name.value === "model" ? "key" : "model");
    return typeof key === "string" && hidden.has(key);
  };
  const typeName = (t: TypeNode): string => (t.kind === Kind.NAMED_TYPE ? t.name.value : typeName(t.type));
  // The input types only the hidden models' mutations take.
  const inputs = new Set(document.definitions.flatMap((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION
    ? (d.fields ?? []).filter((f) => directive(f, "write") && named(f)).flatMap((f) => (f.arguments ?? []).map((a) => typeName(a.type)))
    : [])));
  const definitions = document.definitions.flatMap((d): DefinitionNode[] => {
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) return inputs.has(d.name.value) ? [] : [d];
    if (d.kind !== Kind.OBJECT_TYPE_DEFINITION) return [d];
    if (named(d)) return [];
    const kept: ObjectTypeDefinitionNode = { ...d, fields: d.fields?.filter((f) => !named(f)) };
    return [kept];
  });
  return { ...document, definitions };
}
