// Every name the generator makes is made here: model keys, tables, columns, labels,
// schema component names. Takes spec names; gives strings. Nothing else invents names.

/** Sorts by UTF-16 code unit, never by locale, so output is the same on every machine. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `ipam.Prefix` → `ipam.prefix`: the content-type label used in keys and `object_type`. */
export function modelKey(app: string, name: string): string {
  return `${app}.${name.toLowerCase()}`;
}

/** A reference written in a spec (`ipam.VRF`) as a model key. */
export function refKey(ref: string): string {
  const dot = ref.indexOf(".");
  return modelKey(ref.slice(0, dot), ref.slice(dot + 1));
}

export function tableName(app: string, name: string): string {
  return `${app}_${name.toLowerCase()}`;
}

export function fkColumn(field: string): string {
  return `${field}_id`;
}

export function m2mTable(table: string, field: string): string {
  return `${table}_${field}`;
}

export function tagAssignmentTable(tagTable: string): string {
  return `${tagTable}_assignment`;
}

/** The tag assignment table's columns: the tagged object (any model: its key and id) and the tag. */
export const TAG_ASSIGNMENT_COLUMNS = { source: "object_id", type: "object_type", target: "tag_id" } as const;

/** The fields a model's features add, by feature. */
export const FEATURE_FIELDS = {
  treeParent: "parent",
  treeDepth: "_depth",
  tags: "tags",
  customFields: "custom_fields",
  computedFields: "computed_fields",
  notesUrl: "notes_url",
  relationships: "relationships",
  created: "created",
  lastUpdated: "last_updated",
} as const;

/** The fields of the api's computedFieldModel that the computed_fields of other models read. */
export const COMPUTED_FIELD_COLUMNS = { contentType: "content_type", slug: "slug", template: "template", fallback: "fallback_value", weight: "weight" } as const;

/** Where the custom-fields feature keeps its values. */
export const CUSTOM_FIELDS_COLUMN = "custom_field_data";

/** `IPAddress` → `IP Address`, `TenantGroup` → `Tenant Group`, `VRF` → `VRF`. */
export function verboseName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
}

/** The fields the content-type registry model has (api `contentTypes`): what its rows hold. */
export const CONTENT_TYPE_FIELDS = { appLabel: "app_label", model: "model", appLabeledName: "app_labeled_name" } as const;

/** An app's human name in content types: the spec's (`DCIM`), else the label capitalised (`Extras`), as Django's AppConfig. */
export function appVerboseName(app: string, names: Record<string, string> = {}): string {
  return names[app] ?? app.charAt(0).toUpperCase() + app.slice(1);
}

/**
 * A model's name in running text, as Django's `verbose_name`: `Device Type` → `device type`,
 * `IP Address` → `IP address` (acronyms stay capitals).
 */
export function sentenceName(verbose: string): string {
  return verbose.split(" ").map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase())).join(" ");
}

/** `is_pool` → `Is pool`, `id` → `ID`, `url` → `Url` (DRF's capfirst of the verbose name). */
export function fieldLabel(name: string): string {
  if (name === "id") return "ID";
  const words = name.replace(/^_+/, "").split("_").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `Prefix` → `Prefix`; brief and writable forms get their own component names. */
export const componentName = {
  full: (model: string) => model,
  nested: (model: string) => `Nested${model}`,
  brief: (model: string) => `Brief${model}`,
  writable: (model: string) => `Writable${model}Request`,
  patched: (model: string) => `PatchedWritable${model}Request`,
  paginated: (model: string) => `Paginated${model}List`,
  choice: (set: string) => `${set}Choice`,
};

/** The folder of an API's hooks that holds helpers the hook modules share, never a model's hook module. */
export const HOOK_HELPERS = "lib";

/** The folder of the apps (Nautobot's plugins), one folder each, and where an app keeps its models, hooks and jobs. */
export const APPS_DIR = "apps";
export const APP_SPEC_DIR = "spec";
export const APP_HOOKS_DIR = "hooks";
export const APP_JOBS_DIR = "jobs";

/** The route below the API's base path that the apps hang below (Nautobot's `/api/plugins/`). */
export const PLUGINS_ROUTE = "plugins";

/** Where an app's routes start below the base path: `plugins/<baseUrl>`. */
export function appRouteBase(baseUrl: string): string {
  return `${PLUGINS_ROUTE}/${baseUrl}`;
}

/**
 * Where a model's hook module lives, from the project root, without extension: `hooks/<api>/<name>`,
 * or `apps/<app>/hooks/<name>` for a model of an app.
 */
export function hookModulePath(api: string, name: string, app?: string): string {
  return app ? `${APPS_DIR}/${app}/${APP_HOOKS_DIR}/${name}` : `hooks/${api}/${name}`;
}

/** A hook module's key among the loaded ones: two apps (or an app and the core) may use one name. */
export function hookKey(name: string, app?: string): string {
  return app ? `${app}:${name}` : name;
}

/** Migration file names: zero-padded sequence and a summary of what changed. */
export function migrationName(seq: number, summary: string): string {
  return `${String(seq).padStart(4, "0")}_${summary}.sql`;
}

/** Constraint and index names, kept under PostgreSQL's 63-byte identifier limit. */
export function constraintName(table: string, suffix: string): string {
  const name = `${table}_${suffix}`;
  return name.length <= 63 ? name : name.slice(0, 63);
}

/** The constraint and index names of a table, by what they are for. */
export const constraintNames = {
  index: (table: string, column: string) => constraintName(table, `${column}_idx`),
  unique: (table: string, column: string) => constraintName(table, `${column}_key`),
  uniqueTogether: (table: string, columns: string[]) => constraintName(table, `${columns.join("_")}_uniq`),
  gist: (table: string, column: string) => constraintName(table, `${column}_gist`),
  trigrams: (table: string, column: string) => constraintName(table, `${column}_trigrams`),
  foreignKey: (table: string, column: string) => constraintName(table, `${column}_fkey`),
  ordering: (table: string) => constraintName(table, "ordering_idx"),
  taggedObject: (table: string) => constraintName(table, "object_idx"),
  extra: (table: string, columns: string[], using: string) => constraintName(table, `${columns.join("_")}_${using}_idx`),
};

/** The snapshot key of a model's hand-written SQL block: `app.Model:name`. */
export function sqlBlockKey(app: string, model: string, name: string): string {
  return `${app}.${model}:${name}`;
}

/** A many-to-many join table's columns: the source row, and the target model's row. */
export function m2mColumns(targetModel: string): { source: string; target: string } {
  return { source: "source_id", target: `${targetModel.toLowerCase()}_id` };
}

/** The type of a model's stored row in `generated/<api>/rows.ts`: `dcim.VMInterface` → `DcimVMInterface`. */
export function rowTypeName(app: string, name: string): string {
  return `${app.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("")}${name}`;
}

/** DRF-style operation ids: `<app>_<route>_<action>` (`ipam_prefixes_list`). */
export function operationId(app: string, route: string, action: string): string {
  return `${app}_${route}_${action}`;
}

/** Where the generator writes each file, relative to generated/, and what the model modules export. */
export const generatedPaths = {
  model: (api: string, app: string, route: string) => `${api}/models/${app}/${route}.ts`,
  modelImport: (app: string, route: string) => `./models/${app}/${route}.js`,
  modelExport: (app: string, name: string) => `${app}_${name}`,
  index: (api: string) => `${api}/index.ts`,
  tables: (api: string) => `${api}/tables.ts`,
  rows: (api: string) => `${api}/rows.ts`,
  indexImport: (api: string) => `./${api}/index.js`,
  openapi: (api: string, version: string) => `${api}/openapi/${version}.json`,
  migrations: (api: string) => `${api}/migrations`,
  migration: (api: string, name: string) => `${api}/migrations/${name}`,
  snapshot: (api: string) => `${api}/schema.json`,
  /** An app's migration stream: its migrations and snapshot, beside the API's own. */
  appStream: (api: string, app: string) => `${api}/apps/${app}`,
};

/**
 * GraphQL names as Nautobot's graphene-django schema makes them: `<Model>Type`, queries named
 * by the verbose name (`ip_address`) and its plural (the route's words, `ip_addresses`; a
 * route two apps share takes the verbose name's plural, `vm_interfaces`), choice enums
 * `<App><Model><Field>Choices` with values as graphene's `to_const` (`A_1000BASE_T`).
 */
export function graphqlNames(models: Array<{ key: string; name: string; app: string; route: string; verboseName: string }>) {
  const snake = (s: string) => s.trim().toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  const camel = (s: string) => s.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join("");
  const routes = new Map<string, number>();
  for (const m of models) routes.set(m.route, (routes.get(m.route) ?? 0) + 1);
  return {
    type: (m: { name: string }) => `${m.name}Type`,
    /** The input type a model's mutations take (graphene's `<Model>Input` convention). */
    input: (m: { name: string }) => `${m.name}Input`,
    /** A mutation's name: `create_device` for one object, `create_devices` (the list query's name) for a list. */
    mutation: (action: "create" | "update" | "delete", name: string) => `${action}_${name}`,
    single: (m: { verboseName: string }) => snake(m.verboseName),
    list: (m: { route: string; verboseName: string }) => (routes.get(m.route)! > 1 && snake(m.verboseName) + "s" !== snake(m.route) ? `${snake(m.verboseName)}s` : snake(m.route)),
    enumName: (m: { app: string; name: string }, field: string) => `${camel(m.app)}${m.name}${camel(field)}Choices`,
    enumValue: (value: string) => {
      const name = value.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[\W|^]+/g, "_").toUpperCase();
      return /^[_A-Za-z][_0-9A-Za-z]*$/.test(name) ? name : `A_${name}`;
    },
  };
}
