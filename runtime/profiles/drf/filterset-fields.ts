// Nautobot's core API over a model's filter set (`/core/filterset-fields/…`), which its dynamic
// filter form asks: the lookup expressions a filter field offers, and the HTML input of one.
// Built from the generated filter descriptors; the wording is Nautobot's (django-filter's
// verbose lookups, its form widgets' markup).
import { modelRoute, type FieldDescriptor, type FilterDescriptor, type ModelDescriptor } from "../../descriptor.js";
import { Answer } from "../../errors.js";
import { escapeHtml } from "../../http/templates.js";

/** A filter parameter's suffix (`ic`, `nie`, `gte`) → the Django lookup it applies (FILTER_*_LOOKUP_MAP). */
const SUFFIX_LOOKUP: Record<string, string> = {
  n: "exact", ic: "icontains", nic: "icontains", iew: "iendswith", niew: "iendswith", isw: "istartswith", nisw: "istartswith",
  ie: "iexact", nie: "iexact", re: "regex", nre: "regex", ire: "iregex", nire: "iregex", lte: "lte", lt: "lt", gte: "gte", gt: "gt",
};

/** django-filter's VERBOSE_LOOKUPS; an empty one (exact) reads "exact". */
const VERBOSE_LOOKUP: Record<string, string> = {
  exact: "", iexact: "", contains: "contains", icontains: "contains", in: "is in", gt: "is greater than",
  gte: "is greater than or equal to", lt: "is less than", lte: "is less than or equal to", startswith: "starts with",
  istartswith: "starts with", endswith: "ends with", iendswith: "ends with", range: "is in range", isnull: "is null",
  regex: "matches regex", iregex: "matches regex", search: "search",
};

/** The model whose content type `content_type` names, and the field, or the error Nautobot answers (a bare JSON string). */
export function filtersetQuery(params: Map<string, string[]>, models: Map<string, ModelDescriptor>): { model: ModelDescriptor; field: string } {
  const contentType = params.get("content_type")?.at(-1);
  const field = params.get("field_name")?.at(-1);
  if (contentType === undefined || field === undefined) throw new Answer(400, "content_type and field_name are required parameters");
  const model = models.get(contentType);
  if (!model) throw new Answer(404, "content_type not found");
  return { model, field };
}

/** The filters of `model` that the filter form groups under `field` (its own and its lookups'), or a 404. */
function filtersOf(model: ModelDescriptor, field: string): FilterDescriptor[] {
  if (!model.filters.some((f) => f.param === field)) throw new Answer(404, "field_name not found");
  return model.filters.filter((f) => f.param.replace(/__\w+/, "") === field && !f.param.startsWith("has_"));
}

/** Nautobot's get_all_lookup_expr_for_field: `{id, name}` of each lookup, labelled as build_lookup_label does. */
export function lookupChoices(model: ModelDescriptor, field: string): Array<{ id: string; name: string }> {
  const filters = filtersOf(model, field);
  if (field.startsWith("has_")) return [{ id: field, name: "exact" }];
  return filters.map((f) => ({ id: f.param, name: lookupLabel(f.param) }));
}

function lookupLabel(param: string): string {
  const suffix = /__(\w+)/.exec(param)?.[1];
  const lookup = suffix === undefined ? "exact" : SUFFIX_LOOKUP[suffix] ?? suffix;
  const verbose = lookup.split("__").map((l) => VERBOSE_LOOKUP[l] ?? l).join(" ") || "exact";
  if (suffix === undefined || param.includes("__destination") || param.includes("__source")) return verbose;
  return `${suffix.startsWith("n") ? "not " : ""}${verbose} (${suffix})`;
}

const BOOLEAN_CHOICES: Array<[string, string]> = [["", "---------"], ["True", "Yes"], ["False", "No"]];

/**
 * The HTML of the form input for filter `field` of `model`, as Nautobot's form widgets render
 * it: a select of the choices for choice and boolean filters, an API-backed select for filters
 * naming other objects, date pickers, a number input, else its multi-value text select.
 */
export function filterDomElement(model: ModelDescriptor, field: string, modelOf: (key: string) => ModelDescriptor | undefined, basePath: string): string {
  const filter = model.filters.find((f) => f.param === field)!;
  filtersOf(model, field);
  const described: FieldDescriptor | undefined = model.fields.find((f) => f.name === filter.field);
  const id = `id_for_${field}`;
  const name = escapeHtml(field);
  const select = (attrs: string, options: Array<[string | number, string]>, multiple: boolean) =>
    `<select name="${name}" ${attrs} id="${id}"${multiple ? " multiple" : ""}>\n${options
      .map(([v, label]) => `  <option value="${escapeHtml(String(v))}">${escapeHtml(label)}</option>\n`).join("")}</select>`;
  if (described?.kind === "choice") return select(`class="form-control nautobot-select2-static" data-multiple="1"`, described.choices, true);
  if (filter.kind === "choice" || (filter.kind === "method" && filter.choices)) {
    return select(`class="form-control nautobot-select2-static" data-multiple="1"`, (filter.choices ?? []).map((c) => [c, c]), true);
  }
  if (filter.kind === "boolean" || filter.kind === "hasRelated" || filter.kind === "present" || filter.takes === "boolean") {
    return select(`class="form-control nautobot-select2-static"`, BOOLEAN_CHOICES, false);
  }
  if (filter.kind === "number" || filter.takes === "number") return `<input type="number" name="${name}" class="form-control" id="${id}">`;
  if (filter.kind === "date") return `<input type="text" name="${name}" class="form-control date-picker" placeholder="YYYY-MM-DD" id="${id}">`;
  if (filter.kind === "datetime") {
    return `<input type="text" name="${name}" class="form-control datetime-picker" placeholder="YYYY-MM-DD hh:mm:ss" id="${id}">`;
  }
  const status = described?.kind === "status";
  const targetKey = status ? described.statuses.model : described && "target" in described ? described.target : filter.takes;
  const target = targetKey ? modelOf(targetKey) : undefined;
  if (target) {
    const url = escapeHtml(`${basePath}${modelRoute(target)}/`);
    // Statuses and tags are offered only where they apply to this model, as Nautobot's form asks the API.
    const scoped = status || filter.kind === "tag" ? ` data-query-param-content_types="${escapeHtml(JSON.stringify([model.key]))}"` : "";
    const valueField = filter.idOnly ? "id" : target.naturalKey ?? "id";
    return select(`class="form-control nautobot-select2-api" data-multiple="1"${scoped} data-url="${url}" display-field="display" value-field="${valueField}"`, [], true);
  }
  return select(`class="form-control nautobot-select2-multi-value-char" data-multiple="1"`, [], true);
}
