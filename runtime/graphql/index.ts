// GraphQL over an API's engine: parses and validates a request against the schema the
// generator emitted, refuses what is too deep or too wide, compiles the operation into one SQL
// statement (compile.ts), runs it, and lets graphql-js shape the answer from the JSON that
// statement built (each field read by its response key). A mutation's root fields are written
// in order by the profile's writer, in one transaction, and what they wrote is read back by one
// such statement. Knows models only through the schema's directives; the caller gives the
// operation (whose actor's rows are read), how it writes, and how refusals are worded.
import {
  execute, getArgumentValues, getOperationAST, getVariableValues, GraphQLError, OperationTypeNode, parse, specifiedRules, validate,
  type DocumentNode, type ExecutionResult, type FragmentDefinitionNode, type GraphQLFormattedError, type GraphQLObjectType, type GraphQLSchema, type SelectionSetNode,
} from "graphql";
import type { Knex } from "knex";
import type { ModelDescriptor } from "../descriptor.js";
import type { Operation, RowId, WriteOperation } from "../operations/index.js";
import type { ModelIndex } from "../models.js";
import { filterErrors, FilterCompiler, type DynamicFilterProvider, type DynamicFilters, type FilterErrors } from "../query/filters.js";
import { ReadPlans, type RenderContext } from "../query/read-plan.js";
import { graphqlSdl } from "../artifacts.js";
import { ident } from "../query/sql.js";
import { JsonText, jsonbWritten } from "../query/json-text.js";
import { dynamicFilters } from "../features/index.js";
import { renderComputed } from "../kinds/computed-fields.js";
import { needsStatementTimeout } from "../db/connect.js";
import { buildGraphqlApi, type GraphqlApi, type WriteAction } from "./schema.js";
import { NOT_AS_IS, QueryCompiler, type Compiled, type Limits, type Written } from "./compile.js";
import { computedOf, definitionsOf, fingerprintSql, loadDynamic, withDynamic } from "./custom.js";
import type { ComputedFieldsField, CustomFieldDefinitions } from "../descriptor.js";

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface Requester {
  /** A root field's filter errors as the message its error carries. */
  word(errors: FilterErrors): string;
  /** The API version and URL the REST reads computed fields render from would answer in (the API's defaults when absent). */
  version?: string;
  apiUrl?: string;
  /** How the requester's mutations write; without one, mutations are refused. */
  writer?: Writer;
  /** Whether the answer's body may be JSON text (a `JsonText`, where PostgreSQL wrote the answer whole) rather than an object. */
  text?: boolean;
}

/** A mutation's refusal, as the API words it: the answer's HTTP status, the error's message and its extensions. */
export interface Refusal {
  status: number;
  message: string;
  extensions: Record<string, unknown>;
}

/**
 * How a profile writes for GraphQL: through the same operations, permission checks and store
 * calls as its own write routes. A mutation document is one `run`; each root field one `write`.
 */
export interface Writer {
  /** Runs `work` as one write operation: one transaction, all or none. */
  run<T>(work: (op: WriteOperation) => Promise<T>): Promise<T>;
  /** Does one mutation within `op`: the ids of the rows it created, changed or deleted. */
  write(op: WriteOperation, mutation: { model: ModelDescriptor; action: WriteAction; many: boolean }, args: Record<string, unknown>): Promise<RowId[]>;
  /** A write's failure as the API words it; undefined for one it does not expect (a bug: thrown on). */
  refusal(err: unknown): Refusal | undefined;
}

/** What a request gets: the body to send and its status (a 400 for a document refused before it ran, a mutation's refusal its own 4xx). */
export interface GraphqlAnswer {
  status: number;
  body: { data?: unknown; errors?: GraphQLFormattedError[] } | JsonText;
}

/** A mutation's answer that failed: thrown so that its operation rolls back. */
class Unanswered extends Error {
  constructor(readonly errors: GraphQLFormattedError[]) {
    super("the answer of a mutation failed");
  }
}

/** A document being answered: what compiling and shaping its answer needs. */
interface Reading {
  api: GraphqlApi;
  document: DocumentNode;
  operationName?: string;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  requester: Requester;
  version: string;
}

/** Bounds a query must keep, so a hostile one is refused before it costs anything. */
export const LIMITS: Limits & { maxTokens: number; statementTimeoutMs: number } = { maxDepth: 10, maxFields: 1000, maxTokens: 20_000, statementTimeoutMs: 30_000 };

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = "57014";

const refuse = (message: string): GraphqlAnswer => ({ status: 400, body: { errors: [{ message }] } });

/** The statement column carrying the custom-field definitions' fingerprint. */
const FINGERPRINT = "_gq_custom";

/** Documents kept parsed and validated per schema. */
const DOCUMENTS_KEPT = 100;

/** The columns of a filter plan's checks (named with `prefix`), as the plan names them. */
const checked = (root: Record<string, unknown>, prefix: string) =>
  Object.fromEntries(Object.entries(root).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));

export class GraphqlService {
  private readonly base: GraphqlApi;
  private readonly filters: FilterCompiler;
  private readonly custom?: CustomFieldDefinitions;
  /** The relationship definitions' table, when the api has relationships. */
  private readonly relationships?: string;
  private readonly computed?: ComputedFieldsField["definitions"];
  private readonly plans: ReadPlans;
  private readonly providers: DynamicFilterProvider[];
  /** Documents parsed and validated, by schema and text (`checked`). */
  private readonly documents = new WeakMap<GraphQLSchema, Map<string, { document: DocumentNode; invalid: readonly GraphQLError[] }>>();
  /** The schema with the custom fields last read, and their fingerprint then. */
  private current?: { fingerprint: string; api: GraphqlApi };

  constructor(private readonly index: ModelIndex, sdl: string, hidden: ReadonlySet<string> = new Set()) {
    this.base = buildGraphqlApi(sdl, index, hidden);
    this.filters = new FilterCompiler(index);
    this.custom = definitionsOf(index);
    const r = index.api.relationships;
    this.relationships = r ? index.model(r.definitions).table : undefined;
    this.computed = computedOf(index);
    this.plans = new ReadPlans(index);
    this.providers = dynamicFilters(index);
  }

  /** The schema as the custom-field and relationship definitions make it: read once, and again whenever a statement finds them changed. */
  private async schemaOf(db: Knex, reread: boolean): Promise<{ api: GraphqlApi; fingerprint?: string }> {
    if (!this.custom && !this.relationships && !this.computed) return { api: this.base };
    if (!this.current || reread) {
      const dynamic = await loadDynamic(db, this.custom, this.relationships, this.computed);
      this.current = { fingerprint: dynamic.fingerprint, api: withDynamic(this.base, dynamic) };
    }
    return this.current;
  }

  /** Answers `request` as `op`'s reads: every model's rows at every level those its actor may view. */
  async run(op: Operation, request: GraphqlRequest, requester: Requester, reread = false): Promise<GraphqlAnswer> {
    const db: Knex = op.trx;
    const { query, operationName } = request;
    if (typeof query !== "string" || query === "") return refuse("Must provide query string.");
    let variables = request.variables ?? {};
    if (typeof variables === "string") {
      try {
        variables = variables === "" ? {} : JSON.parse(variables);
      } catch {
        return refuse("Variables are invalid JSON.");
      }
    }
    if (typeof variables !== "object" || variables === null || Array.isArray(variables)) return refuse("Variables are invalid JSON.");
    if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return refuse("Operation name must be a string.");
    const { api, fingerprint } = await this.schemaOf(db, reread);
    const checked = this.checked(api.schema, query);
    if (checked instanceof GraphQLError) return { status: 400, body: { errors: [checked.toJSON()] } };
    const { document, invalid } = checked;
    // A custom field or relationship another instance just defined is not in this schema yet: read the definitions once more.
    if (invalid.length && fingerprint !== undefined && !reread && invalid.some((e) => /"(cf|rel)_/.test(e.message))) return this.run(op, request, requester, true);
    if (invalid.length) return { status: 400, body: { errors: invalid.map((e) => e.toJSON()) } };
    const operation = getOperationAST(document, operationName ?? undefined);
    if (!operation) return refuse(operationName ? `Unknown operation named "${operationName}".` : "Must provide operation name if query contains multiple operations.");
    const mutations = requester.writer ? api.schema.getMutationType() : undefined;
    const mutation = operation.operation === OperationTypeNode.MUTATION ? mutations : undefined;
    if (operation.operation !== OperationTypeNode.QUERY && !mutation) {
      return refuse(`'${operation.operation}' is not a supported operation, Only ${mutations ? `${OperationTypeNode.QUERY} and ${OperationTypeNode.MUTATION}` : OperationTypeNode.QUERY} are supported.`);
    }
    const coerced = getVariableValues(api.schema, operation.variableDefinitions ?? [], variables as Record<string, unknown>);
    if (coerced.errors) return { status: 400, body: { errors: coerced.errors.map((e) => e.toJSON()) } };
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of document.definitions) if (d.kind === "FragmentDefinition") fragments[d.name.value] = d;
    const read: Reading = { api, document, operationName: operationName ?? undefined, fragments, variables: coerced.coerced, requester, version: requester.version ?? this.index.api.versions.default };
    if (mutation) return this.mutate(op, read, mutation, operation.selectionSet, requester.writer!);

    const compiled = await this.compiled(db, op, read, (c) => c.compile(api.schema.getQueryType()!, operation.selectionSet));
    if (compiled instanceof GraphQLError) return { status: 400, body: { errors: [compiled.toJSON()] } };
    const root: Record<string, unknown> = {};
    if (compiled.statement.sql !== "SELECT 1 AS _none") {
      const probe = fingerprint !== undefined ? `, ${fingerprintSql(this.custom, this.relationships, this.computed)} AS ${FINGERPRINT}` : "";
      let result;
      try {
        result = await this.bounded(db, compiled.statement.sql + probe, compiled.statement.bindings as Knex.RawBinding[]);
      } catch (err) {
        if ((err as { code?: string }).code === QUERY_CANCELED) return { status: 200, body: { errors: [{ message: `Query took too long: at most ${LIMITS.statementTimeoutMs} ms.` }], data: null } };
        throw err;
      }
      const { [FINGERPRINT]: found, ...row } = result.rows[0] ?? {};
      if (probe && found !== fingerprint && !reread) return this.run(op, request, requester, true);
      Object.assign(root, row);
    }
    return this.answer(read, compiled, root);
  }

  /**
   * Runs a mutation document as one write operation: each root field in order, through the
   * profile's writer, then the rows written read for the answer by one statement in the same
   * transaction. The first refusal rolls everything back and is the answer, with its status.
   */
  private async mutate(op: Operation, read: Reading, mutation: GraphQLObjectType, selection: SelectionSetNode, writer: Writer): Promise<GraphqlAnswer> {
    const { api } = read;
    let at: string | undefined;
    try {
      return await writer.run(async (wop) => {
        // The roots are collected inside the operation so that a retried one starts afresh.
        const compiler = this.compiler(wop.trx, op, read, new Map());
        const written = new Map<string, Written>();
        const root: Record<string, unknown> = {};
        for (const [key, nodes] of compiler.roots(mutation, selection)) {
          const name = nodes[0].name.value;
          if (name === "__typename") continue;
          const def = mutation.getFields()[name];
          const source = api.sources.get(`${mutation.name}.${name}`);
          if (source?.kind !== "write") continue;
          at = key;
          const ids = await writer.write(wop, source, getArgumentValues(def, nodes[0], read.variables));
          if (source.action === "delete") root[key] = source.many ? ids.map(String) : String(ids[0]);
          else written.set(key, { model: source.model, ids, many: source.many });
        }
        at = undefined;
        const compiled = await this.compiled(wop.trx, op, read, (c) => c.compileWritten(mutation, selection, written));
        if (compiled instanceof GraphQLError) throw compiled;
        if (compiled.statement.sql !== "SELECT 1 AS _none") {
          const result = await this.bounded(wop.trx, compiled.statement.sql, compiled.statement.bindings as Knex.RawBinding[]);
          Object.assign(root, result.rows[0]);
        }
        const answer = await this.answer(read, compiled, root);
        // A selection that fails (a bad filter argument below a written object) fails the document: nothing is kept.
        if (!(answer.body instanceof JsonText) && answer.body.errors) throw new Unanswered(answer.body.errors);
        return answer;
      });
    } catch (err) {
      if (err instanceof GraphQLError) return { status: 400, body: { errors: [err.toJSON()], data: null } };
      if (err instanceof Unanswered) return { status: 400, body: { errors: err.errors, data: null } };
      const refusal = writer.refusal(err);
      if (!refusal) throw err;
      return { status: refusal.status, body: { errors: [{ message: refusal.message, ...(at !== undefined ? { path: [at] } : {}), extensions: refusal.extensions }], data: null } };
    }
  }

  private compiler(db: Knex, op: Operation, read: Reading, dynamic: Map<string, DynamicFilters[]>): QueryCompiler {
    const shown = (m: ModelDescriptor, alias: string) => {
      const plan = this.plans.get(m, "full", read.version);
      const select = plan.select.replace(/\?/g, "\\?");
      return `(SELECT to_jsonb(r) FROM (SELECT ${select} FROM ${ident(m.table)} t0 WHERE t0.id = ${alias}.id) r)`;
    };
    return new QueryCompiler({ db, index: this.index, api: read.api, filters: this.filters, permitted: (m, alias) => op.scope(m, alias), shown, dynamic }, read.fragments, read.variables, LIMITS);
  }

  /** What `build` compiles, with the filters named by data loaded for the models whose lists it filters by them; a refused document as its error. */
  private async compiled(db: Knex, op: Operation, read: Reading, build: (c: QueryCompiler) => Compiled): Promise<Compiled | GraphQLError> {
    const dynamic = new Map<string, DynamicFilters[]>();
    for (;;) {
      let compiled: Compiled;
      try {
        compiled = build(this.compiler(db, op, read, dynamic));
      } catch (err) {
        if (err instanceof GraphQLError) return err;
        throw err;
      }
      if (!compiled.needs.size) return compiled;
      for (const [m, params] of compiled.needs) {
        const loaded: DynamicFilters[] = [];
        for (const provide of this.providers) {
          const filters = await provide(db, m, [...params], { strict: true });
          if (filters) loaded.push(filters);
        }
        dynamic.set(m.key, loaded);
      }
    }
  }

  /** The answer graphql-js shapes from the root values the statement read: filter errors failing their root fields, computed fields rendered. */
  private async answer(read: Reading, compiled: Compiled, root: Record<string, unknown>): Promise<GraphqlAnswer> {
    const { api, requester, version } = read;
    const texts = compiled.texts.filter((key) => typeof root[key] === "string");
    for (const key of texts) root[key] = jsonbWritten(root[key] as string);
    const asIs = texts.every((key) => !(root[key] as string).includes(NOT_AS_IS));
    if (requester.text && compiled.exact && asIs && !compiled.refused.size && this.passedChecks(compiled, root)) {
      const data = compiled.exact.map((key) => `${JSON.stringify(key)}:${root[key] ?? "null"}`).join(",");
      return { status: 200, body: new JsonText(`{"data":{${data}}}`) };
    }
    for (const key of texts) root[key] = JSON.parse(asIs ? root[key] as string : (root[key] as string).replaceAll(NOT_AS_IS, ""));
    const rctx: RenderContext = { apiUrl: requester.apiUrl ?? this.index.api.basePath.replace(/\/$/, "") };
    for (const [key, { errors, plan }] of compiled.refused) {
      root[key] = new GraphQLError(requester.word(filterErrors(plan, errors, undefined) ?? errors));
    }
    for (const { key, plan, prefix } of compiled.checks) {
      const errors = filterErrors(plan, {}, checked(root, prefix));
      if (errors && !(root[key] instanceof GraphQLError)) root[key] = new GraphQLError(requester.word(errors));
    }
    const executed = await execute({
      schema: api.schema,
      document: read.document,
      rootValue: root,
      variableValues: read.variables,
      operationName: read.operationName,
      fieldResolver: (source, _args, _ctx, info) => {
        const value = (source as Record<string, unknown> | null)?.[info.path.key as string];
        const how = api.sources.get(`${info.parentType.name}.${info.fieldName}`);
        if (how?.kind !== "computedField" || !value) return value;
        const m = api.models.get(info.parentType.name)!;
        const obj = this.plans.get(m, "full", version).render((value as { obj: Record<string, unknown> }).obj, rctx);
        return renderComputed([how.definition], rctx, obj)[how.definition[0]];
      },
    }) as ExecutionResult;
    return { status: 200, body: { ...(executed.errors ? { errors: executed.errors.map((e) => e.toJSON()) } : {}), data: executed.data ?? null } };
  }

  /**
   * `query` parsed and validated against `schema`, or its syntax error. A client asks the same
   * documents again and again (with other variables): the last DOCUMENTS_KEPT of each schema
   * are kept, their syntax trees read-only to graphql-js.
   */
  private checked(schema: GraphQLSchema, query: string): { document: DocumentNode; invalid: readonly GraphQLError[] } | GraphQLError {
    let kept = this.documents.get(schema);
    if (!kept) this.documents.set(schema, (kept = new Map()));
    const known = kept.get(query);
    if (known) {
      kept.delete(query);
      kept.set(query, known);
      return known;
    }
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: LIMITS.maxTokens });
    } catch (err) {
      return err as GraphQLError;
    }
    const found = { document, invalid: validate(schema, document, specifiedRules, { maxErrors: 20 }) };
    if (kept.size >= DOCUMENTS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(query, found);
    return found;
  }

  /** Whether every filter check riding in the statement found nothing wrong. */
  private passedChecks(compiled: Compiled, root: Record<string, unknown>): boolean {
    return compiled.checks.every(({ plan, prefix }) => !filterErrors(plan, {}, checked(root, prefix)));
  }

  /**
   * The statement under PostgreSQL's statement_timeout, set for its own transaction only where
   * the connection does not already bound it as tightly (a read pool's does, by default): three
   * round trips (BEGIN, SET LOCAL, COMMIT) a query need not make. The embedded database runs in
   * this process and cannot be interrupted: it takes the setting and ignores it, so there the
   * depth and width limits are what bound a query, and the statement runs alone.
   */
  private bounded(db: Knex, sql: string, bindings: Knex.RawBinding[]): Promise<{ rows: Array<Record<string, unknown>> }> {
    if (!needsStatementTimeout(db, LIMITS.statementTimeoutMs)) return db.raw(sql, bindings) as unknown as Promise<{ rows: Array<Record<string, unknown>> }>;
    return db.transaction(async (trx): Promise<{ rows: Array<Record<string, unknown>> }> => {
      await trx.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(LIMITS.statementTimeoutMs))}`);
      return trx.raw(sql, bindings);
    }) as Promise<{ rows: Array<Record<string, unknown>> }>;
  }
}

const services = new WeakMap<ModelIndex, GraphqlService>();

/** The GraphQL service of an API's model index, built once, without the models of apps not enabled (`hidden`, model keys). */
export function graphqlService(index: ModelIndex, hidden: ReadonlySet<string> = new Set()): GraphqlService {
  let service = services.get(index);
  if (!service) {
    // The SDL (over a megabyte of text) is read for this once, not kept.
    const sdl = graphqlSdl(index.api);
    if (sdl === undefined) throw new Error(`API ${index.api.name} serves no GraphQL`);
    services.set(index, (service = new GraphqlService(index, sdl, hidden)));
  }
  return service;
}
