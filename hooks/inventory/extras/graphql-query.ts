// Nautobot's GraphQLQuery: the query must parse (clean), its `variables` are always the
// query's own variable definitions with their default values, as written in the query, or ""
// (save), and `run` answers the query as /api/graphql/ would, as the requester.
import { GraphQLError, Kind, parse, print, type ConstValueNode } from "graphql";
import { type ActionEvent, Answer, Refusal, type SaveEvent, notFound } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { ExtrasGraphQLQuery } from "../../../generated/inventory/rows.js";

const Q = tables.extras.graphqlquery;

/** A default value as graphql-core 2's AST gives its `.value`: a scalar's text; a list or object as written. */
const defaultOf = (v: ConstValueNode | undefined): unknown =>
  v === undefined ? "" : v.kind === Kind.NULL ? null : "value" in v ? v.value : print(v);

export function beforeSave({ values, before }: SaveEvent<ExtrasGraphQLQuery>): void {
  const query = values.query ?? before?.query;
  if (typeof query !== "string") return;
  let document;
  try {
    document = parse(query);
  } catch (err) {
    throw new Refusal({ query: (err as GraphQLError).message });
  }
  const variables: Record<string, unknown> = {};
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of d.variableDefinitions ?? []) variables[v.variable.name.value] = defaultOf(v.defaultValue);
  }
  values.variables = variables;
}

export const actions = {
  async run(e: ActionEvent): Promise<unknown> {
    const cond = e.permitted(e.model, "add", "t0");
    const [saved] = (await e.db(`${Q.table} as t0`).select(`t0.${Q.columns.query}`).where(`t0.id`, e.id!)
      .modify((qb) => { if (cond) qb.whereRaw(cond.sql, cond.bindings as never[]); })) as Array<Record<string, string>>;
    if (!saved || !e.graphql) throw notFound();
    const body = (typeof e.body === "object" && e.body !== null ? e.body : {}) as Record<string, unknown>;
    const answer = await e.graphql({ query: saved[Q.columns.query], variables: body.variables ?? undefined });
    return new Answer(answer.status, answer.body);
  },
};

