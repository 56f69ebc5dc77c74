// What a GraphQL query asks for, for its price under rate limits: the fields it selects, counted
// over the parsed document's selection sets with each fragment spread counted where it is spread
// (a fragment spread twice costs twice, as it is answered twice). Takes the query text; gives
// a count, or null for a query that does not parse (it is refused before it costs anything).
import { parse, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";
import { LIMITS } from "./index.js";

export function fieldsSelected(query: string, operationName?: string): number | null {
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
  if (!chosen) return 0;
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
  return count(chosen.selectionSet, new Set());
}
