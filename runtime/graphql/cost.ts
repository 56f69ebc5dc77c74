// What a GraphQL query asks for, for its price under rate limits: the fields it selects, counted
// over the parsed document's selection sets with each fragment spread counted where it is spread
// (a fragment spread twice costs twice, as it is answered twice), and, for a mutation, the writes
// it makes: one a mutation field, or a bulk one's elements (`create_sites(input: [...])`,
// `delete_sites(ids: [...])`), as REST prices an array body. Without that a write through GraphQL
// would cost a read and a few fields, a fraction of the same write through REST. Takes the
// query text (and the variables a list argument may come from); gives null for a query that
// does not parse (it is refused before it costs anything).
import { parse, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { LIMITS } from "./index.js";

export interface GraphqlDemand {
  /** Fields selected, nested ones and spread fragments included. */
  fields: number;
  /** Writes a mutation makes; 0 for a query. */
  writes: number;
}

export function graphqlDemand(query: string, operationName?: string, variables?: unknown): GraphqlDemand | null {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: LIMITS.maxTokens, noLocation: true });
  } catch {
    return null;
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === "FragmentDefinition") fragments.set(d.name.value, d);
  const operations = document.definitions.filter((d) => d.kind === "OperationDefinition");
  const chosen = operations.find((o) => o.name?.value === operationName) ?? operations[0];
  if (!chosen) return { fields: 0, writes: 0 };
  const count = (set: SelectionSetNode, spreading: ReadonlySet<string>): number => {
    let n = 0;
    for (const s of set.selections) {
      if (s.kind === "Field") n += 1 + (s.selectionSet ? count(s.selectionSet, spreading) : 0);
      else if (s.kind === "InlineFragment") n += count(s.selectionSet, spreading);
      else {
        const f = fragments.get(s.name.value);
        // A fragment spreading itself is refused by validation; it costs nothing more here.
        if (f && !spreading.has(f.name.value)) n += count(f.selectionSet, new Set([...spreading, f.name.value]));
      }
      // Far beyond any query validation lets through (LIMITS.maxFields): stop counting.
      if (n > LIMITS.maxFields * 10) return n;
    }
    return n;
  };
  const fields = count(chosen.selectionSet, new Set());
  return { fields, writes: chosen.operation === "mutation" ? writesOf(chosen, fragments, variables) : 0 };
}

/** The writes of a mutation's top-level fields: each one, or as many as its list argument holds. */
function writesOf(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, variables: unknown): number {
  const values = variables !== null && typeof variables === "object" && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {};
  const topLevel = (set: SelectionSetNode, spreading: ReadonlySet<string>): FieldNode[] => set.selections.flatMap((s) => {
    if (s.kind === "Field") return [s];
    if (s.kind === "InlineFragment") return topLevel(s.selectionSet, spreading);
    const f = fragments.get(s.name.value);
    return f && !spreading.has(f.name.value) ? topLevel(f.selectionSet, new Set([...spreading, f.name.value])) : [];
  });
  let writes = 0;
  for (const field of topLevel(operation.selectionSet, new Set())) {
    if (field.name.value.startsWith("__")) continue;
    let elements = 1;
    for (const arg of field.arguments ?? []) {
      const given = arg.value.kind === "ListValue" ? arg.value.values.length
        : arg.value.kind === "Variable" && Array.isArray(values[arg.value.name.value]) ? (values[arg.value.name.value] as unknown[]).length
        : undefined;
      if (given !== undefined) elements = Math.max(elements, given);
    }
    writes += elements;
  }
  return writes;
}
