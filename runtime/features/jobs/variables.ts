// A job's variables as data: the record the sync keeps of each (the Job model's `variables`),
// named as Nautobot's form field attributes, so that what the API shows of a job's variables
// and the checks of a run's data need no job code. Wording those checks is the API's business.
import type { Variable, VariableType } from "./define.js";

/** A variable as the Job record keeps it: Nautobot's field attributes, by their names. */
export interface VariableRecord {
  name: string;
  type: VariableType;
  label?: string;
  help_text?: string;
  default?: unknown;
  required: boolean;
  min_length?: number;
  max_length?: number;
  regex?: string;
  min_value?: number;
  max_value?: number;
  choices?: Array<[string, string]>;
  model?: string;
  query_params?: Record<string, string | string[]>;
  min_prefix_length?: number;
  max_prefix_length?: number;
}

/** The record of a declared variable; a bound Nautobot sets only when given a truthy value is left out, as it leaves it. */
export function recordOf(name: string, v: Variable): VariableRecord {
  const truthy = (x: number | undefined) => (x ? x : undefined);
  const entries: Array<[string, unknown]> = [
    ["label", v.label || undefined], ["help_text", v.description || undefined], ["default", v.default ?? undefined],
    ["min_length", truthy(v.minLength)], ["max_length", truthy(v.maxLength)], ["regex", v.regex || undefined],
    ["min_value", truthy(v.minValue)], ["max_value", truthy(v.maxValue)], ["choices", v.choices],
    ["model", v.model?.toLowerCase()], ["query_params", v.queryParams],
    ["min_prefix_length", v.minPrefixLength], ["max_prefix_length", v.maxPrefixLength],
  ];
  return { name, type: v.type, required: v.type === "BooleanVar" ? false : v.required, ...Object.fromEntries(entries.filter(([, x]) => x !== undefined)) };
}

