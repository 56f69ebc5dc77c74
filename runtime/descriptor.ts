// The shapes generated code hands to the runtime: an API descriptor holding model descriptors.
// Pure types; the generator fills them from the spec, the runtime interprets them. Nothing
// here names a model, and nothing here runs.

export type ScalarType =
  | "uuid" | "string" | "text" | "integer" | "float" | "boolean" | "date" | "datetime" | "json"
  | "cidr" | "ip" | "password";

/**
 * What a field is, as the runtime needs to read, write and filter it.
 * - scalar: a column of `type`.
 * - choice: a text/int column shown as `{value, label}`.
 * - fk: a `<name>_id` column; shown nested; written as id or attribute dict.
 * - m2m: a join table; shown as a list of nested objects.
 * - ipFamily: derived from a cidr/ip column, shown as `{value, label}`.
 * - count: rows of another model pointing here.
 * - id / url / display / depth: the common computed fields.
 * - tags / customFields: the feature fields.
 */
export type FieldKind =
  | "scalar" | "choice" | "fk" | "m2m" | "ipFamily" | "count" | "reverse"
  | "id" | "url" | "display" | "depth" | "tags" | "customFields";

export interface FieldDescriptor {
  name: string;
  kind: FieldKind;
  label: string;
  description?: string;
  type?: ScalarType;
  /** Database column (scalar, choice, fk). */
  column?: string;
  required: boolean;
  nullable: boolean;
  readOnly: boolean;
  writeOnly?: boolean;
  unique?: boolean;
  /** Value used on create when absent; `"now"` for date/datetime, `{randomHex: n}` for keys. */
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  blank?: boolean;
  min?: number;
  max?: number;
  pattern?: { regex: string; message: string };
  format?: "email" | "url" | "color";
  slugFrom?: string;
  since?: string;
  until?: string;
  choices?: Array<[string | number, string]>;
  /** fk / m2m target model key (`ipam.vrf`). */
  target?: string;
  onDelete?: "protect" | "cascade" | "setNull";
  fromRequestUser?: boolean;
  /** m2m join table and its two columns. */
  through?: { table: string; source: string; target: string };
  /** ipFamily: the column it derives from. */
  from?: string;
  /** count: what is counted. */
  count?: { table: string; column: string; descendants: boolean };
  /** reverse: the `target` model's foreign-key column that points here; one object (not a list) up to `singleUntil`. */
  reverse?: { column: string; singleUntil?: string };
}

/** A piece of the display template: literal text, or a path of field names with an optional transform. */
export type DisplayPart = { text: string } | { path: string[]; last?: number };

export type FilterKind =
  | "uuid" | "string" | "number" | "boolean" | "choice" | "fk" | "date" | "datetime"
  | "tag" | "q" | "network";

export type NetworkLookup =
  | "net_equals" | "net_contained" | "net_contained_or_equal" | "net_contains_or_equals"
  | "net_host_contained" | "family" | "mask_length" | "mask_length__gte" | "mask_length__lte" | "address";

export interface FilterDescriptor {
  /** The query parameter name, lookup suffix included (`name__ic`). */
  param: string;
  kind: FilterKind;
  /** The field it filters on; for `q`, the fields searched. */
  field?: string;
  fields?: string[];
  /** `exact` for the plain filter; the suffix otherwise (`ic`, `n`, `gte`, …). */
  lookup: string;
  /** fk filters: match by id only (the `<fk>_id` form). */
  idOnly?: boolean;
  /** fk filters: `field` belongs to the model this foreign key of the filtered model points to. */
  via?: string;
  network?: NetworkLookup;
}

export type Operation = "list" | "retrieve" | "create" | "update" | "delete";

export interface ModelDescriptor {
  /** Content-type label: `<app>.<model lower-case>`. */
  key: string;
  name: string;
  app: string;
  route: string;
  table: string;
  verboseName: string;
  description: string;
  display: DisplayPart[];
  ordering: Array<{ field: string; desc: boolean }>;
  features: {
    tags: boolean;
    customFields: boolean;
    changeLogged: boolean;
    tree: boolean;
    ownedByRequester: boolean;
  };
  fields: FieldDescriptor[];
  nested: string[];
  brief: string[];
  naturalKey?: string;
  filters: FilterDescriptor[];
  uniqueTogether: string[][];
  operations: Operation[];
  /** Names of this model's schemas under `components.schemas` of the OpenAPI documents. */
  components: { full: string; nested: string; brief: string; write: string; patch: string; list: string };
  /** WordPress-style presentation, written in the spec as is; absent for other profiles. */
  wordpress?: WpModelDescriptor;
}

/**
 * WordPress-style presentation of a model. A `post` model has `status`, `slug`, `author`,
 * `date`, `modified` fields and a title field; a `term` model has `name`, `slug`,
 * `description` (and `parent` when hierarchical).
 */
export interface WpModelDescriptor {
  kind: "post" | "term";
  /** Key of the list in the archive envelope (`events`) and the route segment. */
  listKey: string;
  /** Singular noun used in error codes (`event` gives `event-archive-page-not-found`). */
  noun: string;
  /** The field holding the title (`title`, `venue`); slugs are made from it. */
  titleField?: string;
  /** Post types: routes by slug (`/<route>/by-slug/<slug>`). */
  slugRoutes?: boolean;
  /** Post types: drop empty values from the rendered record. */
  dropEmpty?: boolean;
  /** Terms: the taxonomy name shown in records. */
  taxonomy?: string;
  /** Local wall-clock start/end stored with an IANA timezone field: adds UTC copies and `*_details`. */
  wallClock?: { start: string; end: string; timezone: string; allDay?: string; utcStart: string; utcEnd: string };
  /** Price field rendered with `cost_details` (currency symbol and position parsed from it). */
  money?: string;
  /** Fields holding an image id or URL, rendered as `false` or `{url, id, extension}`. */
  images?: string[];
  /** Text fields shown as HTML paragraphs, as WordPress's content filters (`wpautop`) render them. */
  html?: string[];
  /** URL fields that fall back to the record's permalink when empty. */
  permalinkFallback?: string[];
  /** Latitude and longitude fields: geolocation filters of models linking here use them. */
  geo?: { lat: string; lng: string };
  /** Flag fields whose true value hides the record from archive lists. */
  hiddenFlag?: string;
  /** Fields compared (case-insensitive) to reuse an existing record when one is created inline. */
  dedupeOn?: string[];
  /** Fields the archive `search` parameter looks in. */
  search?: string[];
  /** Linked fk/m2m fields rendered as a single object (fk) or always a list (m2m). */
  embed?: string[];
  /** Post types: archive default ordering by a field (`start_date`), else newest `date` first. */
  archiveOrder?: string;
}

export interface ApiDescriptor {
  name: string;
  title: string;
  description: string;
  profile: "drf" | "wordpress";
  basePath: string;
  apps: string[];
  rootLinks: string[];
  versions: { default: string; supported: string[] };
  settings: Record<string, unknown>;
  auth?: { users: string; tokens?: string };
  tagModel?: string;
  /** Primary keys: random UUIDs (default) or database-assigned integers. */
  idType?: "uuid" | "serial";
  /** Model key of per-user application passwords. */
  appPasswords?: string;
  models: ModelDescriptor[];
  /** OpenAPI document per API version, as emitted. */
  openapi: Record<string, unknown>;
  /** Migrations in order: file name and SQL. */
  migrations: Array<{ name: string; sql: string }>;
}
