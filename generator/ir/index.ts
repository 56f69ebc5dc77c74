// IR pass: turns a validated spec into the intermediate representation, which is the
// runtime's ApiDescriptor (minus the OpenAPI documents and migrations that emitters add)
// plus where each model came from. Implicit fields, filters and names are decided here once.
import type { ApiSpec, FieldSpec, ModelSpec } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";
import type {
  ApiDescriptor, DisplayPart, FieldDescriptor, FilterDescriptor, ModelDescriptor,
} from "../../runtime/descriptor.js";
import {
  byCodePoint, componentName, fieldLabel, fkColumn, m2mTable, modelKey, refKey, tableName, tagAssignmentTable, verboseName,
} from "./names.js";

export interface IrModel extends ModelDescriptor {
  /** The spec file the model came from. */
  file: string;
}

export interface IrApi extends Omit<ApiDescriptor, "openapi" | "migrations" | "models"> {
  file: string;
  models: IrModel[];
}

const STRING_LOOKUPS = ["n", "ic", "nic", "isw", "nisw", "iew", "niew", "ie", "nie", "re", "nre", "ire", "nire"];
const NUMBER_LOOKUPS = ["n", "lt", "lte", "gt", "gte"];

export function buildIr(loaded: LoadedApi): IrApi {
  const api = loaded.api.value as ApiSpec;
  const specs = loaded.models.map((m) => ({ spec: m.value as ModelSpec, file: m.file }));
  const byRef = new Map(specs.map((s) => [`${s.spec.app}.${s.spec.name}`, s.spec]));
  const models = specs
    .map(({ spec, file }) => buildModel(api, spec, file, byRef))
    .sort((a, b) => byCodePoint(a.key, b.key));
  return {
    file: loaded.api.file,
    name: api.name,
    title: api.title,
    description: api.description ?? "",
    profile: api.profile,
    basePath: api.basePath,
    apps: [...api.apps],
    rootLinks: [...(api.rootLinks ?? [])],
    versions: api.versions ?? { default: "1", supported: ["1"] },
    settings: { ...(api.settings ?? {}) },
    ...(api.auth ? { auth: { users: refKey(api.auth.users), ...(api.auth.tokens ? { tokens: refKey(api.auth.tokens) } : {}) } } : {}),
    ...(api.tagModel ? { tagModel: refKey(api.tagModel) } : {}),
    ...(api.idType ? { idType: api.idType } : {}),
    ...(api.appPasswords ? { appPasswords: refKey(api.appPasswords) } : {}),
    models,
  };
}

function buildModel(api: ApiSpec, m: ModelSpec, file: string, byRef: Map<string, ModelSpec>): IrModel {
  const features = new Set(m.features ?? []);
  const key = modelKey(m.app, m.name);
  const table = tableName(m.app, m.name);
  const fields: FieldDescriptor[] = [
    computed("id", "id", { type: api.idType === "serial" ? "integer" : "uuid" }),
    computed("display", "display"),
    computed("url", "url"),
  ];
  for (const [name, spec] of Object.entries(m.fields)) fields.push(buildField(name, spec, table, byRef));
  if (features.has("tree")) {
    fields.push({
      ...base("parent", {}), kind: "fk", column: fkColumn("parent"), target: key, nullable: true, onDelete: "cascade",
    });
    fields.push(computed("_depth", "depth"));
  }
  if (features.has("changeLogged")) {
    fields.push({ ...computed("created", "scalar", { type: "date", default: "now" }), column: "created" });
    fields.push({ ...computed("last_updated", "scalar", { type: "datetime", default: "now" }), column: "last_updated" });
  }
  if (features.has("tags")) {
    const tagKey = refKey(api.tagModel!);
    const tagSpec = byRef.get(api.tagModel!)!;
    fields.push({
      ...base("tags", {}), kind: "tags", target: tagKey,
      through: { table: tagAssignmentTable(tableName(tagSpec.app, tagSpec.name)), source: "object_id", target: "tag_id" },
    });
  }
  if (features.has("customFields")) fields.push({ ...base("custom_fields", {}), kind: "customFields", column: "custom_field_data" });

  const naturalKey = m.naturalKey ?? ("slug" in m.fields ? "slug" : undefined);
  // Embedded in another object, the nested form carries no counts: DRF drops an annotated
  // field the related instance lacks, and the seed's nested shapes show none. The top-level
  // brief form keeps them (the brief list defaults to the spec's nested list).
  const counts = new Set(fields.filter((f) => f.kind === "count").map((f) => f.name));
  return {
    file,
    key,
    name: m.name,
    app: m.app,
    route: m.route,
    table,
    verboseName: m.verboseName ?? verboseName(m.name),
    description: m.description ?? "",
    display: parseDisplay(m.display),
    ordering: m.ordering.map((o) => ({ field: o.replace(/^-/, ""), desc: o.startsWith("-") })),
    features: {
      tags: features.has("tags"),
      customFields: features.has("customFields"),
      changeLogged: features.has("changeLogged"),
      tree: features.has("tree"),
      ownedByRequester: features.has("ownedByRequester"),
    },
    fields,
    nested: ["id", "url", "display", ...m.nested.filter((n) => !["id", "url", "display"].includes(n) && !counts.has(n))],
    brief: ["id", "url", "display", ...(m.brief ?? m.nested).filter((n) => !["id", "url", "display"].includes(n))],
    ...(naturalKey ? { naturalKey } : {}),
    filters: buildFilters(m, fields),
    uniqueTogether: (m.uniqueTogether ?? []).map((g) => [...g]),
    operations: m.operations ? [...m.operations] : ["list", "retrieve", "create", "update", "delete"],
    components: {
      full: componentName.full(m.name),
      nested: componentName.nested(m.name),
      brief: componentName.brief(m.name),
      write: componentName.writable(m.name),
      patch: componentName.patched(m.name),
      list: componentName.paginated(m.name),
    },
    ...(m.wordpress ? { wordpress: structuredClone(m.wordpress) } : {}),
  };
}

function base(name: string, spec: { label?: string; description?: string }): Omit<FieldDescriptor, "kind"> {
  return {
    name,
    label: spec.label ?? fieldLabel(name),
    ...(spec.description ? { description: spec.description } : {}),
    required: false,
    nullable: false,
    readOnly: false,
  };
}

function computed(name: string, kind: FieldDescriptor["kind"], extra: Partial<FieldDescriptor> = {}): FieldDescriptor {
  return { ...base(name, {}), kind, readOnly: true, ...extra };
}

function buildField(name: string, f: FieldSpec, table: string, byRef: Map<string, ModelSpec>): FieldDescriptor {
  const common: FieldDescriptor = {
    ...base(name, f),
    kind: f.kind,
    required: f.required ?? false,
    nullable: f.nullable ?? false,
    readOnly: f.readOnly ?? false,
    ...(f.writeOnly ? { writeOnly: true } : {}),
    ...(f.unique ? { unique: true } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...(f.since ? { since: f.since } : {}),
    ...(f.until ? { until: f.until } : {}),
  };
  switch (f.kind) {
    case "scalar": {
      const extra: Partial<FieldDescriptor> = { type: f.type, column: f.column ?? name };
      for (const k of ["maxLength", "minLength", "min", "max", "pattern", "format", "slugFrom"] as const) {
        if (f[k] !== undefined) (extra as Record<string, unknown>)[k] = f[k];
      }
      if (f.randomHex) extra.default = { randomHex: f.randomHex };
      const stringy = f.type === "string" || f.type === "text";
      if (stringy) extra.blank = f.blank ?? !f.required;
      return { ...common, ...extra };
    }
    case "choice":
      return {
        ...common,
        column: f.column ?? name,
        blank: f.blank ?? false,
        choices: f.choices.values.map(([v, l]) => [v, l] as [string | number, string]),
      };
    case "ipFamily":
      return { ...common, readOnly: true, from: f.from };
    case "count": {
      const [app, model, fkName] = f.of.split(".");
      return {
        ...common,
        readOnly: true,
        count: { table: tableName(app, model), column: fkColumn(fkName), descendants: f.descendants ?? false },
      };
    }
    case "reverse": {
      const [app, model, fkName] = f.of.split(".");
      return {
        ...common,
        readOnly: true,
        target: modelKey(app, model),
        reverse: { column: fkColumn(fkName), ...(f.singleUntil ? { singleUntil: f.singleUntil } : {}) },
      };
    }
    case "fk":
      return {
        ...common,
        column: f.column ?? fkColumn(name),
        target: refKey(f.target),
        onDelete: f.onDelete ?? "protect",
        ...(f.fromRequestUser ? { fromRequestUser: true, readOnly: true } : {}),
      };
    case "m2m": {
      const target = byRef.get(f.target)!;
      return {
        ...common,
        target: refKey(f.target),
        through: { table: m2mTable(table, name), source: "source_id", target: `${target.name.toLowerCase()}_id` },
      };
    }
  }
}

function parseDisplay(template: string): DisplayPart[] {
  const parts: DisplayPart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^}|]+)(?:\|last:(\d+))?\}/g)) {
    if (match.index! > last) parts.push({ text: template.slice(last, match.index) });
    parts.push({ path: match[1].split("."), ...(match[2] ? { last: Number(match[2]) } : {}) });
    last = match.index! + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

function buildFilters(m: ModelSpec, fields: FieldDescriptor[]): FilterDescriptor[] {
  const excluded = new Set(m.filters?.exclude ?? []);
  const out: FilterDescriptor[] = [];
  const add = (param: string, f: Omit<FilterDescriptor, "param">) => out.push({ param, ...f });
  const withLookups = (name: string, kind: FilterDescriptor["kind"], lookups: string[]) => {
    add(name, { kind, field: name, lookup: "exact" });
    for (const l of lookups) add(`${name}__${l}`, { kind, field: name, lookup: l });
  };
  let familyDone = false;
  for (const f of fields) {
    if (excluded.has(f.name) || f.writeOnly) continue;
    switch (f.kind) {
      case "id":
        withLookups("id", "uuid", ["n"]);
        break;
      case "scalar":
        if (f.name === "created" || f.name === "last_updated") {
          // Nautobot declares exact/gte/lte only, typed by the field (a token's `created` is a date-time).
          const kind = f.type === "date" ? "date" : "datetime";
          for (const lookup of ["exact", "gte", "lte"]) add(lookup === "exact" ? f.name : `${f.name}__${lookup}`, { kind, field: f.name, lookup });
        } else if (f.type === "string" || f.type === "text") withLookups(f.name, "string", STRING_LOOKUPS);
        else if (f.type === "uuid") withLookups(f.name, "uuid", ["n"]);
        else if (f.type === "integer" || f.type === "float") withLookups(f.name, "number", NUMBER_LOOKUPS);
        else if (f.type === "date") withLookups(f.name, "date", NUMBER_LOOKUPS);
        else if (f.type === "datetime") withLookups(f.name, "datetime", NUMBER_LOOKUPS);
        else if (f.type === "boolean") add(f.name, { kind: "boolean", field: f.name, lookup: "exact" });
        else if (f.type === "cidr") add(f.name, { kind: "network", field: f.name, lookup: "exact", network: "net_equals" });
        else if (f.type === "ip") add(f.name, { kind: "network", field: f.name, lookup: "exact", network: "address" });
        break;
      case "choice":
        withLookups(f.name, "choice", ["n"]);
        break;
      case "fk":
        withLookups(f.name, "fk", ["n"]);
        add(`${f.name}_id`, { kind: "fk", field: f.name, lookup: "exact", idOnly: true });
        add(`${f.name}_id__n`, { kind: "fk", field: f.name, lookup: "n", idOnly: true });
        break;
      case "ipFamily":
        if (!familyDone) add("family", { kind: "network", field: f.from!, lookup: "exact", network: "family" });
        familyDone = true;
        break;
      case "tags":
        add("tag", { kind: "tag", field: "tags", lookup: "exact" });
        add("tag__n", { kind: "tag", field: "tags", lookup: "n" });
        break;
    }
  }
  if (m.filters?.q?.length) add("q", { kind: "q", fields: [...m.filters.q], lookup: "exact" });
  for (const [param, x] of Object.entries(m.filters?.extra ?? {})) {
    add(param, { kind: "network", field: x.field, lookup: "exact", network: x.lookup });
  }
  for (const [param, path] of Object.entries(m.filters?.via ?? {})) {
    const [via, field] = path.split(".");
    add(param, { kind: "fk", field, via, lookup: "exact" });
    add(`${param}__n`, { kind: "fk", field, via, lookup: "n" });
    add(`${param}_id`, { kind: "fk", field, via, lookup: "exact", idOnly: true });
    add(`${param}_id__n`, { kind: "fk", field, via, lookup: "n", idOnly: true });
  }
  const seen = new Set<string>();
  return out.filter((f) => (seen.has(f.param) ? false : (seen.add(f.param), true)));
}
