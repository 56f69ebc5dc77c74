// The providers of filters whose names are data (runtime/query/filters.ts DynamicFilterProvider),
// for an api: those of the features it has.
import { customFieldFilters } from "../custom-fields/filters.js";
import type { ModelIndex } from "../models.js";
import { relationshipFilters } from "../relationships/filters.js";
import type { DynamicFilterProvider } from "./filters.js";

export function dynamicFilters(index: ModelIndex): DynamicFilterProvider[] {
  return [customFieldFilters, ...(index.api.relationships ? [relationshipFilters(index)] : [])];
}
