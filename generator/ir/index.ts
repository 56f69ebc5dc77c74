// IR pass: turns a validated spec into the intermediate representation, which is the
// runtime's ApiDescriptor (minus the OpenAPI documents and migrations that emitters add)
// plus where each model came from. Implicit fields, filters and names are decided here once.
import { METHOD_TAKES, type ApiSpec, type FieldSpec, type ModelSpec, type SqlBlock } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";
import { kindOf, specKindOf } from "../kinds/index.js";
import { sqlLiteral } from "../kinds/sql-literal.js";
import { contentTypesThrough, registryOf } from "../kinds/content-types.js";
import { wordpressRoutes } from "./wordpress-routes.js";
import { drfRoutes } from "./drf-routes.js";
import { storedCountSql } from "../kinds/count.js";
import type { AddFilter } from "../kinds/types.js";
import {
  storedColumn, type ApiDescriptor, type CountField, type CustomFieldDefinitions, type DisplayPart, type DisplayTransform, type FieldCommon, type FieldDescriptor, type FilterDescriptor, type ModelDescriptor,
  type Ordering, type ScalarType, type UniqueGroup,
} from "../../runtime/descriptor.js";
import {
  appRouteBase, appVerboseName, byCodePoint, componentName, COMPUTED_FIELD_COLUMNS, CONTENT_TYPE_FIELDS, CUSTOM_FIELDS_COLUMN, FEATURE_FIELDS, fieldLabel, fkColumn, m2mTable, modelKey, refKey, tableName,
  sentenceName, sqlBlockKey, TAG_ASSIGNMENT_COLUMNS, tagAssignmentTable, verboseName,
} from "./names.js";

/** The change-log feature's fields: when a row was created and last changed, kept by the server. */
const CHANGE_LOG: Array<[string, ScalarType, "create" | "update"]> = [
  [FEATURE_FIELDS.created, "date", "create"],
  [FEATURE_FIELDS.lastUpdated, "datetime", "update"],
];

export interface IrModel extends ModelDescriptor {
  /** The spec file the model came from. */
  file: string;
  /** Extra indexes, by column (not part of the descriptor). */
  indexes: Array<{ columns: string[]; using: string }>;
  /** What the next migration should do with existing rows (not part of the descriptor). */
  migration: {
    /** Column → the column it was renamed from (`renamedFrom`). */
    renames: Record<string, string>;
    /** Column → the SQL value existing rows get when it becomes required (`backfill`). */
    backfills: Record<string, string>;
    /**
     * Columns whose default, `''`, is no value of the field (a required string the spec gives
     * no default): rows that get it would fail the field's own checks on their next update.
     */
    blankDefaults: string[];
  };
  /** Fields only GraphQL shows (spec `graphqlFields`; not part of the descriptor). */
  graphqlFields: NonNullable<ModelSpec["graphqlFields"]>;
  /** The rows the table starts with (spec `rows`), by key: column → SQL literal (not part of the descriptor). */
  rows: Record<string, Record<string, string>>;
}

export interface IrApi extends Omit<ApiDescriptor, "openapiFiles" | "openapi" | "graphqlFile" | "migrations" | "appMigrations" | "models"> {
  file: string;
  models: IrModel[];
  /** Tables (`table`) and columns (`table.column`) the next migration may destroy. */
  discard: string[];
  /** Hand-written SQL blocks, by snapshot key (`name`, or `app.Model:name` for a model's). */
  sql: Record<string, SqlBlock>;
  /** The API's own migrations each app's first migration replaces (app `replaces`), by app folder name. */
  appReplaces?: Record<string, string[]>;
  /** The content-type registry's rows (api `contentTypes`): its table, and each model's column values by model key. */
  contentTypeRows?: { table: string; rows: Record<string, Record<string, string>> };
}


export function buildIr(loaded: LoadedApi): IrApi {
  const api = loaded.api.value as ApiSpec;
  const specs = loaded.models.map((m) => ({ spec: m.value as ModelSpec, file: m.file, app: m.app }));
  const byRef = new Map(specs.map((s) => [`${s.spec.app}.${s.spec.name}`, s.spec]));
  const plugins = loaded.apps.map(({ value: a, app }) => ({
    name: app!, label: a.label, base: appRouteBase(a.baseUrl), verboseName: a.verboseName, version: a.version,
    author: a.author, authorEmail: a.authorEmail ?? "", description: a.description,
  })).sort((a, b) => byCodePoint(a.name, b.name));
  const models = specs
    .map(({ spec, file, app }) => {
      const m = buildModel(api, spec, file, byRef);
      const plugin = plugins.find((p) => p.name === app);
      return plugin ? { ...m, plugin: { name: plugin.name, base: plugin.base } } : m;
    })
    .sort((a, b) => byCodePoint(a.key, b.key));
  const appNames = { ...api.appNames, ...Object.fromEntries(plugins.map((p) => [p.label, p.verboseName])) };
  const ir: IrApi = {
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
    ...(api.auth ? {
      auth: { users: refKey(api.auth.users), ...(api.auth.tokens ? { tokens: refKey(api.auth.tokens) } : {}), ...(api.auth.settings ? { settings: api.auth.settings } : {}) },
    } : {}),
    ...(api.tagModel ? { tagModel: refKey(api.tagModel) } : {}),
    ...(api.noteModel ? { noteModel: refKey(api.noteModel) } : {}),
    ...(api.relationships ? { relationships: { definitions: refKey(api.relationships.definitions), associations: refKey(api.relationships.associations) } } : {}),
    ...(api.idType ? { idType: api.idType } : {}),
    ...(api.changeLog ? { changeLog: refKey(api.changeLog) } : {}),
    ...(api.webhooks ? { webhooks: refKey(api.webhooks) } : {}),
    ...(api.exportTemplates ? { exportTemplates: refKey(api.exportTemplates) } : {}),
    ...(api.permissions ? { permissions: { objectPermissions: refKey(api.permissions.objectPermissions), groups: refKey(api.permissions.groups) } } : {}),
    ...(api.appPasswords ? { appPasswords: refKey(api.appPasswords) } : {}),
    ...(api.jobs ? { jobs: { jobs: refKey(api.jobs.jobs), results: refKey(api.jobs.results), logs: refKey(api.jobs.logs),
      ...(api.jobs.schedules ? { schedules: refKey(api.jobs.schedules) } : {}), ...(api.jobs.hooks ? { hooks: refKey(api.jobs.hooks) } : {}) } } : {}),
    ...(plugins.length ? { plugins } : {}),
    ...(loaded.apps.some((a) => a.value.replaces?.length)
      ? { appReplaces: Object.fromEntries(loaded.apps.filter((a) => a.value.replaces?.length).map((a) => [a.app!, [...a.value.replaces!]])) } : {}),
    models,
    discard: (api.discard ?? []).flatMap(discarded),
    sql: Object.fromEntries([
      ...Object.entries(api.sql ?? {}),
      ...specs.flatMap(({ spec }) => Object.entries(spec.sql ?? {}).map(([name, block]) => [sqlBlockKey(spec.app, spec.name, name), block] as const)),
      ...specs.filter(({ spec }) => spec.view).map(({ spec }) => {
        const table = tableName(spec.app, spec.name);
        return [sqlBlockKey(spec.app, spec.name, "view"), { up: `CREATE OR REPLACE VIEW "${table}" AS\n${spec.view!.trim()};`, down: `DROP VIEW IF EXISTS "${table}";` }] as const;
      }),
      // The triggers that keep stored counts.
      ...specs.flatMap(({ spec }) => {
        const table = tableName(spec.app, spec.name);
        const counts = models.find((m) => m.table === table)!.fields.filter((f): f is CountField => f.kind === "count" && !!f.count.stored);
        return counts.map((f) => [sqlBlockKey(spec.app, spec.name, `${f.name}:stored`), storedCountSql(table, f)] as const);
      }),
    ].map(([k, b]) => [k, { up: b.up, ...(b.down !== undefined ? { down: b.down } : {}) }])),
  };
  if (api.profile === "wordpress") ir.routes = wordpressRoutes(ir);
  if (api.profile === "drf") ir.drfRoutes = drfRoutes(ir);
  if (api.contentTypes) ir.contentTypeRows = contentTypeRows({ ...api, appNames }, models);
  return ir;
}

/** One registry row per model of the API (views and the registry itself have none). */
function contentTypeRows(api: ApiSpec, models: IrModel[]): IrApi["contentTypeRows"] {
  const registry = refKey(api.contentTypes!);
  const rows = models.filter((m) => !m.view && m.key !== registry).map((m) => [m.key, {
    [CONTENT_TYPE_FIELDS.appLabel]: m.app,
    [CONTENT_TYPE_FIELDS.model]: m.key.slice(m.app.length + 1),
    [CONTENT_TYPE_FIELDS.appLabeledName]: `${appVerboseName(m.app, api.appNames)} | ${sentenceName(m.verboseName)}`,
  }] as const);
  return { table: models.find((m) => m.key === registry)!.table, rows: Object.fromEntries(rows) };
}

/**
 * What a `discard` entry allows: `app.Model` its table; `app.Model.field` the field's column
 * (as a plain or a foreign-key column) or its join table.
 */
function discarded(entry: string): string[] {
  const [app, model, field] = entry.split(".");
  const table = tableName(app, model);
  return field === undefined ? [table] : [`${table}.${field}`, `${table}.${fkColumn(field)}`, m2mTable(table, field)];
}

/** The renames and backfills the spec's fields ask of the next migration. */
function migrationIntent(m: ModelSpec, fields: FieldDescriptor[]): IrModel["migration"] {
  const out: IrModel["migration"] = { renames: {}, backfills: {}, blankDefaults: [] };
  for (const [name, spec] of Object.entries(m.fields)) {
    const field = fields.find((f) => f.name === name)!;
    const column = storedColumn(field);
    if (!column) continue;
    if (field.kind === "scalar" && (field.type === "string" || field.type === "text") && !field.blank && !field.nullable && field.default === undefined) {
      out.blankDefaults.push(column);
    }
    if (spec.renamedFrom) out.renames[column] = spec.kind === "fk" ? fkColumn(spec.renamedFrom) : spec.renamedFrom;
    if (spec.backfill !== undefined) {
      out.backfills[column] = typeof spec.backfill === "object" && spec.backfill !== null
        ? `${sqlLiteral(JSON.stringify(spec.backfill))}::jsonb` : sqlLiteral(spec.backfill);
    }
  }
  return out;
}

/** Where the api's custom fields are defined, as the customFields field carries it. */
function customFieldDefinitions(api: ApiSpec, byRef: Map<string, ModelSpec>): { definitions?: CustomFieldDefinitions } {
  if (!api.customFields || !api.contentTypes) return {};
  const spec = byRef.get(api.customFields.definitions)!;
  const choices = byRef.get(api.customFields.choices)!;
  const table = tableName(spec.app, spec.name);
  const types = Object.entries(spec.fields).find(([, f]) => f.kind === "contentTypes")![0];
  return {
    definitions: {
      table,
      contentTypes: contentTypesThrough(api, table, types),
      registry: registryOf(api),
      choices: { table: tableName(choices.app, choices.name), field: fkColumn("field") },
      ...(api.customFields.slugKeysSince ? { slugKeysSince: api.customFields.slugKeysSince } : {}),
    },
  };
}

function buildModel(api: ApiSpec, m: ModelSpec, file: string, byRef: Map<string, ModelSpec>): IrModel {
  const features = new Set(m.features ?? []);
  const key = modelKey(m.app, m.name);
  const table = tableName(m.app, m.name);
  // A bare model keeps its identity fields for the engine (order, lookups) but shows none.
  const hidden = m.bare ? { writeOnly: true } : {};
  // The content-type registry's rows get integer ids from the generator, as Django's content
  // types have; a serial model's, from the database (in a serial api, every model's are).
  const integer = api.contentTypes === `${m.app}.${m.name}` ? { integer: true }
    : m.idType === "serial" && api.idType !== "serial" ? { integer: true, serial: true } : {};
  const fields: FieldDescriptor[] = [
    { ...base("id", {}), kind: "id", readOnly: true, ...integer, ...hidden },
    { ...base("display", {}), kind: "display", readOnly: true, ...hidden },
    { ...base("url", {}), kind: "url", readOnly: true, ...hidden },
  ];
  for (const [name, spec] of Object.entries(m.fields)) fields.push(buildField(api, key, name, spec, table, byRef, m.fields));
  if (features.has("tree")) {
    fields.push({
      ...base(FEATURE_FIELDS.treeParent, {}), kind: "treeParent", column: fkColumn(FEATURE_FIELDS.treeParent), target: key, nullable: true,
      ...(m.tree?.parentAsId ? { asId: true } : {}),
      ...(m.tree?.relatedName ? { relatedName: m.tree.relatedName } : {}),
    });
    fields.push({ ...base(m.tree?.depthName ?? FEATURE_FIELDS.treeDepth, {}), kind: "depth", readOnly: true, ...(m.tree?.depthOnlyListed ? { onlyListed: true } : {}) });
  }
  if (features.has("changeLogged")) {
    for (const [name, type, autoNow] of CHANGE_LOG) {
      fields.push({ ...base(name, {}), kind: "scalar", type, column: name, readOnly: true, default: "now", autoNow });
    }
  }
  if (features.has("tags")) {
    const tagSpec = byRef.get(api.tagModel!)!;
    const tagTable = tableName(tagSpec.app, tagSpec.name);
    // The tag model's content types of the tags feature, when it has them, limit where a tag applies.
    const scope = Object.entries(tagSpec.fields).find(([, f]) => f.kind === "contentTypes" && f.feature === "tags")?.[0];
    fields.push({
      ...base(FEATURE_FIELDS.tags, {}), kind: "tags", target: refKey(api.tagModel!),
      through: { table: tagAssignmentTable(tagTable), ...TAG_ASSIGNMENT_COLUMNS },
      ...(scope && api.contentTypes ? { scope: { ...contentTypesThrough(api, tagTable, scope), registry: registryOf(api) } } : {}),
    });
  }
  if (features.has("notes")) fields.push({ ...base(FEATURE_FIELDS.notesUrl, {}), kind: "url", readOnly: true, path: "notes/" });
  if (features.has("customFields")) {
    fields.push({ ...base(FEATURE_FIELDS.customFields, {}), kind: "customFields", column: CUSTOM_FIELDS_COLUMN, ...customFieldDefinitions(api, byRef) });
  }
  if (features.has("customFields") && api.computedFieldModel) {
    const [app, name] = api.computedFieldModel.split(".");
    fields.push({
      ...base(FEATURE_FIELDS.computedFields, {}), kind: "computedFields", readOnly: true, optIn: true, contentType: key,
      definitions: { table: tableName(app, name), ...COMPUTED_FIELD_COLUMNS },
    });
  }
  // Nautobot's RelationshipModel is every model with custom fields (RelationshipModelSerializerMixin).
  if (features.has("customFields") && api.relationships) {
    const associations = byRef.get(api.relationships.associations)!;
    fields.push({ ...base(FEATURE_FIELDS.relationships, {}), kind: "relationships", optIn: true, associations: tableName(associations.app, associations.name) });
  }

  const naturalKey = m.naturalKey ?? ("slug" in m.fields ? "slug" : undefined);
  const nested = m.nested === "all" ? fields.map((f) => f.name) : m.nested;
  return {
    file,
    graphqlFields: m.graphqlFields ?? {},
    indexes: (m.indexes ?? []).map((ix) => ({ columns: ix.fields.map((n) => storedColumn(fields.find((f) => f.name === n)!)!), using: ix.using ?? "btree" })),
    migration: migrationIntent(m, fields),
    rows: startingRows(m, fields),
    key,
    name: m.name,
    app: m.app,
    route: m.route,
    table,
    verboseName: m.verboseName ?? verboseName(m.name),
    sentenceName: sentenceName(m.verboseName ?? verboseName(m.name)),
    description: m.description ?? "",
    display: parseDisplay(m.display),
    ordering: m.ordering.map(parseOrdering),
    features: {
      tags: features.has("tags"),
      customFields: features.has("customFields"),
      changeLogged: features.has("changeLogged"),
      tree: features.has("tree"),
      ownedByRequester: features.has("ownedByRequester"),
      ...(features.has("notes") ? { notes: true } : {}),
    },
    fields,
    nested: ["id", "url", "display", ...nested.filter((n) => !["id", "url", "display"].includes(n))],
    brief: ["id", "url", "display", ...(m.brief ?? nested).filter((n) => !["id", "url", "display"].includes(n))],
    ...(naturalKey ? { naturalKey } : {}),
    ...(m.changeLogRelated ? { changeLogRelated: m.changeLogRelated } : {}),
    filters: buildFilters(m, fields, byRef),
    uniqueTogether: uniqueGroups(m),
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
    ...(m.view ? { view: true } : {}),
    ...(m.listings ? {
      listings: Object.entries(m.listings).map(([route, l]) => ({ route, column: storedColumn(fields.find((f) => f.name === l.present)!)!, filters: [...l.filters] })),
    } : {}),
    ...(m.actions ? { actions: Object.entries(m.actions).map(([name, a]) => ({
        name, description: a.description, response: structuredClone(a.response), ...(a.paginated ? { paginated: true } : {}),
        ...(a.onApp ? { onApp: true } : {}), ...(a.parameters ? { parameters: structuredClone(a.parameters) } : {}),
        ...(a.creates ? { creates: { model: refKey(a.creates.model), request: structuredClone(a.creates.request) } } : {}),
        ...(a.method === "POST" ? { method: "POST" as const } : {}), ...(a.request ? { request: structuredClone(a.request) } : {}),
        ...(a.multipart ? { multipart: structuredClone(a.multipart) } : {}),
        ...(a.permission ? { permission: a.permission } : {}), ...(a.status !== undefined && a.status !== 200 ? { status: a.status } : {}),
        ...(a.path ? { path: a.path.split("/") } : {}), ...(a.servesList ? { servesList: { ...a.servesList } } : {}),
      })) } : {}),
    ...(m.hooks ? { hookModule: m.hooks } : {}),
  };
}

/** The spec's `rows` by their key's value, as column → SQL literal. */
function startingRows(m: ModelSpec, fields: FieldDescriptor[]): IrModel["rows"] {
  if (!m.rows) return {};
  const column = (name: string) => storedColumn(fields.find((f) => f.name === name)!)!;
  return Object.fromEntries(m.rows.values.map((r) => [String(r[m.rows!.key]), Object.fromEntries(Object.entries(r).map(([n, v]) => [column(n), sqlLiteral(v)]))]));
}

/** The spec's groups as plain field lists, with who checks them where that is the model. */
export function uniqueGroups(m: ModelSpec): UniqueGroup[] {
  return (m.uniqueTogether ?? []).map((g) => (Array.isArray(g) ? { fields: [...g] } : { fields: [...g.fields], ...(g.checkedBy === "django" ? { checkedBy: "django" as const } : {}) }));
}

function base(name: string, spec: { label?: string; description?: string }): FieldCommon {
  return {
    name,
    label: spec.label ?? fieldLabel(name),
    ...(spec.description ? { description: spec.description } : {}),
    required: false,
    nullable: false,
    readOnly: false,
  };
}

function buildField(api: ApiSpec, model: string, name: string, f: FieldSpec, table: string, byRef: Map<string, ModelSpec>, siblings: Record<string, FieldSpec>): FieldDescriptor {
  const common: FieldCommon = {
    ...base(name, f),
    required: f.required ?? false,
    nullable: f.nullable ?? false,
    readOnly: f.readOnly ?? false,
    ...(f.writeOnly ? { writeOnly: true } : {}),
    ...(f.nestedOnly ? { nestedOnly: true } : {}),
    ...(f.unique ? { unique: true } : {}),
    ...(f.uniqueCheckedBy === "django" ? { uniqueCheckedBy: "django" as const } : {}),
    ...(f.verboseName !== undefined ? { verboseName: f.verboseName } : {}),
    ...(f.uniqueMessage !== undefined ? { uniqueMessage: f.uniqueMessage } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...(f.since ? { since: f.since } : {}),
    ...(f.until ? { until: f.until } : {}),
    ...(f.requiredSince ? { requiredSince: f.requiredSince } : {}),
    ...(f.optIn ? { optIn: true } : {}),
  };
  return specKindOf(f)!.build(f, common, { api, model, name, table, byRef, fields: siblings });
}

/**
 * `{name}[ ({facility_id})]`: fields in braces; a bracketed section shows the first of its
 * `|`-separated alternatives whose fields all have values (`[{name}|{model} ({id})]`), else nothing.
 */
function parseDisplay(template: string): DisplayPart[] {
  const parts: DisplayPart[] = [];
  const sections = template.split(/(\[[^\]]*\])/);
  if (sections.length > 1) {
    for (const s of sections.filter(Boolean)) {
      if (s.startsWith("[")) parts.push({ first: s.slice(1, -1).split(/\|(?![^{]*\})/).map(parseDisplay) });
      else parts.push(...parseDisplay(s));
    }
    return parts;
  }
  let last = 0;
  for (const match of template.matchAll(/\{([^}|]+)(?:\|(?:last:(\d+)|(display|ranges|isoformat)))?\}/g)) {
    if (match.index! > last) parts.push({ text: template.slice(last, match.index) });
    parts.push({ path: match[1].split("."), ...(match[2] ? { last: Number(match[2]) } : {}), ...(match[3] ? { as: match[3] as DisplayTransform } : {}) });
    last = match.index! + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

function buildFilters(m: ModelSpec, fields: FieldDescriptor[], byRef: Map<string, ModelSpec>): FilterDescriptor[] {
  const excluded = new Set(m.filters?.exclude ?? []);
  const out: FilterDescriptor[] = [];
  const add: AddFilter = (param, f) => out.push({ param, ...f });
  for (const f of fields) {
    if (excluded.has(f.name) || f.writeOnly) continue;
    kindOf(f).filters?.(f, add);
  }
  for (const [alias, name] of Object.entries(m.filters?.aliases ?? {})) {
    const f = fields.find((x) => x.name === name)!;
    kindOf(f).filters?.(f, (param, flt) => add(`${alias}${param.slice(name.length)}`, flt));
  }
  if (m.filters?.q?.length) {
    const [own, far] = [m.filters.q.filter((q) => !q.includes(".")), m.filters.q.filter((q) => q.includes("."))];
    const searched = far.map((q) => {
      const [app, model, fk, key] = q.split(".");
      return { table: tableName(app, model), column: fkColumn(fk), key: fieldColumn(byRef, `${app}.${model}`, key) };
    });
    add("q", { kind: "q", fields: own, lookup: "exact", ...(searched.length ? { searched } : {}), ...(m.filters.qAddress ? { field: m.filters.qAddress } : {}) });
  }
  for (const [param, x] of Object.entries(m.filters?.extra ?? {})) {
    if (x.lookup === "contains") add(param, { kind: "contains", field: x.field, lookup: "exact" });
    else add(param, { kind: "network", field: x.field, lookup: "exact", network: x.lookup });
  }
  for (const [param, paths] of Object.entries(m.filters?.via ?? {})) {
    const [first, ...others] = [paths].flat().map((p) => {
      const links = p.split(".");
      const field = links.pop()!;
      return links.length ? { field, via: links } : { field };
    });
    const at = { ...first, ...(others.length ? { alternatives: others } : {}) };
    add(param, { kind: "fk", ...at, lookup: "exact" });
    add(`${param}__n`, { kind: "fk", ...at, lookup: "n" });
    add(`${param}_id`, { kind: "fk", ...at, lookup: "exact", idOnly: true });
    add(`${param}_id__n`, { kind: "fk", ...at, lookup: "n", idOnly: true });
  }
  for (const [param, named] of Object.entries(m.filters?.present ?? {})) {
    const [field, ...others] = [named].flat();
    add(param, { kind: "present", field, ...(others.length ? { fields: [field, ...others] } : {}), lookup: "exact" });
  }
  for (const [param, of] of Object.entries(m.filters?.membership ?? {})) {
    const [app, model, fk] = of.split(".");
    add(param, { kind: "hasRelated", lookup: "exact", related: { table: tableName(app, model), column: fkColumn(fk) } });
  }
  for (const [param, { takes, choices }] of Object.entries(m.filters?.methods ?? {})) {
    add(param, { kind: "method", lookup: "exact", takes: METHOD_TAKES.includes(takes) ? takes : refKey(takes), ...(choices ? { choices: [...choices] } : {}) });
  }
  for (const [param, { of, key }] of Object.entries(m.filters?.related ?? {})) {
    const [app, model, fk] = of.split(".");
    const related = { table: tableName(app, model), column: fkColumn(fk), ...(key ? { key: fieldColumn(byRef, `${app}.${model}`, key) } : {}) };
    add(param, { kind: "related", lookup: "exact", related });
    add(`${param}__n`, { kind: "related", lookup: "n", related });
    add(`has_${param}`, { kind: "hasRelated", lookup: "exact", related });
  }
  const seen = new Set<string>();
  return out.filter((f) => (seen.has(f.param) ? false : (seen.add(f.param), true)));
}

/** The stored column of a declared field of another model. */
function fieldColumn(byRef: Map<string, ModelSpec>, ref: string, name: string): string {
  const spec = byRef.get(ref)!.fields[name];
  return spec.kind === "fk" ? fkColumn(name) : (spec.kind === "scalar" || spec.kind === "choice" || spec.kind === "status") && spec.column ? spec.column : name;
}

/** `-device.name`: the device's name, descending. */
function parseOrdering(o: string): Ordering {
  const path = o.replace(/^-/, "").split(".");
  const field = path.pop()!;
  return { field, desc: o.startsWith("-"), ...(path.length ? { through: path } : {}) };
}
