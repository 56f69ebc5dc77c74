// Relationships: definitions, associations and their rules, the `relationships` kind that reads
// and writes an object's associations (kind.ts), and `cr_<slug>__<side>` filters (filters.ts).
import type { Feature } from "../types.js";
import { relationshipFilters } from "./filters.js";
import { relationships } from "./kind.js";

export const feature = {
  name: "relationships",
  kinds: { relationships },
  filters: (index) => (index.api.relationships ? relationshipFilters(index) : undefined),
} satisfies Feature;
