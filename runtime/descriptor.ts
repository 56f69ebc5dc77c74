// The shapes generated code hands to the runtime: an API descriptor holding model descriptors.
// Pure types and a few total functions over them; the generator fills them from the spec,
// the runtime interprets them. Nothing here names a model or does I/O.
// The hook events here are the part the contract states; the engine's own types they also
// carry (its model index, the engine, the actor) are added in runtime/hook-events.ts, so this
// file imports nothing of the runtime and the runtime's types never loop back through it.
import type { Knex } from "knex";

export type ScalarType =
  | "uuid" | "string" | "text" | "integer" | "float" | "decimal" | "boolean" | "date" | "datetime" | "json"
  | "cidr" | "ip" | "password";

/** What every field has, whatever its kind. */
export interface FieldCommon {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  nullable: boolean;
  readOnly: boolean;
  /** Accepted on write, never shown; with readOnly, neither (an internal owner column). */
  writeOnly?: boolean;
  /** Shown only in the short forms that name it, never in the full one (FieldSpec's nestedOnly). */
  nestedOnly?: boolean;
  unique?: boolean;
  /** Django's model validation checks `unique`, not a DRF validator: a duplicate is worded as Django's. */
  uniqueCheckedBy?: "django";
  /** Django's declared `verbose_name`, where it is not the name with spaces for underscores. */
  verboseName?: string;
  /** The model field's own text for a duplicate, which DRF's validator gives as is. */
  uniqueMessage?: string;
  /** Value used on create when absent; `"now"` for date/datetime, `{randomHex: n}` for keys. */
  default?: unknown;
  /** First and last API versions that show the field. */
  since?: string;
  until?: string;
  /** First API version in which a `required` field is required; optional before it. */
  requiredSince?: string;
  /** Shown by a GET only when its `include` names the field; always in the replies to writes. */
  optIn?: boolean;
}

/**
 * The primary key, `id`: a UUID, or an `integer`, either given by the generator (the
 * content-type registry's rows) or, `serial`, assigned by the database (a model with serial
 * ids in an api of UUIDs).
 */
export interface IdField extends FieldCommon { kind: "id"; integer?: boolean; serial?: boolean }
/** The object's own URL, made from the request's base URL. */
/** The object's URL, or (`path`) a route below it. */
export interface UrlField extends FieldCommon { kind: "url"; path?: string }
/** The `display` string, made from the model's display template. */
export interface DisplayField extends FieldCommon { kind: "display" }

/** A column of `type`. */
export interface ScalarField extends FieldCommon {
  kind: "scalar";
  type: ScalarType;
  column: string;
  maxLength?: number;
  minLength?: number;
  blank?: boolean;
  min?: number;
  max?: number;
  pattern?: { regex: string; message: string };
  format?: "email" | "url" | "color";
  /** Decimals: at most `maxDigits` digits, `decimalPlaces` of them after the point; shown as strings. */
  maxDigits?: number;
  decimalPlaces?: number;
  /** JSON fields: the JSON schema of the value. */
  schema?: Record<string, unknown>;
  /** The fields a slug is made from (`fk.field`: a field of the related row). */
  slugFrom?: string[];
  /** The slug made has underscores for dashes. */
  slugUnderscores?: boolean;
  /** Kept by the server: set on create, and on every update too with `"update"`. */
  autoNow?: "create" | "update";
  /** GIN-indexed by its armature_trigrams, for substring search. */
  searchIndexed?: boolean;
}

/** A text or integer column shown as `{value, label}`. */
export interface ChoiceField extends FieldCommon {
  kind: "choice";
  column: string;
  blank: boolean;
  choices: Array<[string | number, string]>;
  /** Read as the bare value. */
  plain?: boolean;
  /** Read as the bare value in nested and brief forms only. */
  plainWhenNested?: boolean;
}

/** A JSON array column of integer items (between `items.min` and `items.max`), each checked on write. */
export interface ListField extends FieldCommon {
  kind: "list";
  column: string;
  items: { type: "integer"; min?: number; max?: number };
}

/** A `<name>_id` column; shown nested; written as an id or an attribute dictionary. */
export interface FkField extends FieldCommon {
  kind: "fk";
  column: string;
  /** Target model key (`ipam.vrf`). */
  target: string;
  onDelete: "protect" | "cascade" | "setNull";
  /** Set from the authenticated user on create, never writable. */
  fromRequestUser?: boolean;
  /** Nested and brief forms show the bare id. */
  idWhenNested?: boolean;
  /** Every form shows the bare id. */
  asId?: boolean;
  /** The target's fields shown for this link (`id`, `url`, `display` first) instead of its nested form. */
  shape?: string[];
  /** The name the target's rows give the rows pointing at them (a GraphQL reverse list) where it is not the plural; `"+"`: none. */
  relatedName?: string;
  /** The target's reverse is one object, not a list (Django's OneToOneField). */
  oneToOne?: boolean;
}

/** A tree model's link to its parent (same model); never part of its own cycle. */
export interface TreeParentField extends FieldCommon {
  kind: "treeParent";
  column: string;
  target: string;
  /** Shown as the bare id (DRF's PrimaryKeyRelatedField), not nested. */
  asId?: boolean;
  /** The name the target's rows give the rows pointing at them (a GraphQL reverse list) where it is not the plural; `"+"`: none. */
  relatedName?: string;
}

/** A join table; shown as a list of nested objects, written as a list of references. */
export interface M2mField extends FieldCommon {
  kind: "m2m";
  target: string;
  through: { table: string; source: string; target: string };
  /** Read and written as the targets' slugs. */
  bySlug?: boolean;
  /** Nested and brief forms show the targets' values of this field (a string field) instead of nested objects. */
  keyWhenNested?: string;
  /** The name the targets give the rows linking them (a GraphQL reverse list); none when absent. */
  relatedName?: string;
}

/** The tags feature: a list of the API's tag model, through one assignment table for all models. */
export interface TagsField extends FieldCommon {
  kind: "tags";
  target: string;
  through: { table: string; source: string; target: string; type: string };
  /** The tag model's content types (a contentTypes field of the tags feature): a tag applies only to the models it names. */
  scope?: { table: string; source: string; target: string; registry: ContentTypeRegistry };
}

/**
 * The API's content-type registry: a table of the API's models, one row each, by app label and
 * model name, with the name Django shows for each (`labeledName`: `DCIM | device type`).
 */
export interface ContentTypeRegistry {
  table: string;
  appLabel: string;
  model: string;
  labeledName: string;
}

/** Content-type labels (`dcim.site`) of some of `models`, kept as links to the API's content-type registry. */
export interface ContentTypesField extends FieldCommon {
  kind: "contentTypes";
  /** The model keys it may name, in label order. */
  models: string[];
  through: { table: string; source: string; target: string };
  registry: ContentTypeRegistry;
  /** Created without a value (through a version that lacks the field, or when optional): every one of `models`. */
  defaultAll?: boolean;
  /**
   * The list says where the model's rows may be applied (the tag model's scope): a label it
   * stops naming must have no rows of that model left in `assignments`, the tags feature's table.
   */
  assignments?: { table: string; type: string; target: string };
}

/**
 * A status: the slug of a row of `statuses` (a foreign key to its slug), one whose content
 * types include `contentType`, the model's own label; shown as `{value: slug, label: name}`.
 */
export interface StatusField extends FieldCommon {
  kind: "status";
  column: string;
  statuses: {
    /** The status model's key and table (its `slug` and `name` columns). */
    model: string;
    table: string;
    /** Its content types: the join table, and the registry the join rows name. */
    through: { table: string; source: string; target: string };
    registry: ContentTypeRegistry;
  };
  contentType: string;
  /** The slugs of the statuses the model starts with (linked by the migration that adds the field). */
  defaults: string[];
}

/** The address family of a cidr/ip field, shown as `{value, label}`. */
export interface IpFamilyField extends FieldCommon {
  kind: "ipFamily";
  /** The field it derives from. */
  from: string;
}

/** How many rows of another model point here (and, for trees, at descendants). */
export interface CountField extends FieldCommon {
  kind: "count";
  /**
   * Rows of `table` whose `column` holds this row's id (and, through a generic reference, whose
   * `typed.column` holds this model's key); `stored`: the column of the model's own table that
   * triggers on `table` keep the count in.
   */
  count: { table: string; column: string; descendants: boolean; typed?: { column: string; key: string }; stored?: string };
}

/** The `target` rows whose foreign key points here; one object (not a list) up to `singleUntil`. */
export interface ReverseField extends FieldCommon {
  kind: "reverse";
  target: string;
  /**
   * `column`: the target's foreign key pointing here. `through`: one object or null, the
   * pointing row's foreign key field `show` (to the model `target`) nested, with the row
   * itself under `as`.
   */
  reverse: { column: string; singleUntil?: string; through?: { show: string; as: string; target: string } };
}

/** Read only: the first of several of this model's foreign key columns (to `target`) that is set. */
export interface FirstSetField extends FieldCommon {
  kind: "firstSet";
  target: string;
  columns: string[];
}

/** A tree node's depth (`_depth`, or as the spec names it): how many ancestors it has. */
export interface DepthField extends FieldCommon {
  kind: "depth";
  /** Null where the object is embedded in another: only the listed (or fetched) objects have a depth. */
  onlyListed?: boolean;
}

/** A read-only value computed in SQL by the model's hook module (`readValues`), of a declared JSON schema. */
export interface ComputedField extends FieldCommon {
  kind: "computed";
  schema: Record<string, unknown>;
  /** Left out when a read's `exclude` names it. */
  excludable?: boolean;
}

/**
 * The content-type label (`dcim.interface`) of one of `models`, a plain string; `registry`, the
 * API's content-type registry where it has one (its rows' ids and names, as Django's ContentType).
 */
export interface ContentTypeField extends FieldCommon {
  kind: "contentType";
  column: string;
  models: string[];
  registry?: ContentTypeRegistry;
}

/** A row of one of `targets`, named by a type column (content-type labels) and an id column. */
export interface GenericField extends FieldCommon {
  kind: "generic";
  typeColumn: string;
  idColumn: string;
  targets: string[];
  /** Deleting a target row deletes the rows pointing at it. */
  onDelete?: "cascade";
  /** The name the target's rows give the rows pointing at them (a GraphQL reverse list) where it is not the plural; `"+"`: none. */
  relatedName?: string;
}

/**
 * The computed fields of the model (rows of another model, read with the object in the same
 * statement), rendered as `{slug: text}`: `definitions` names their table and columns, and
 * `contentType` the label their content-type column holds for this model.
 */
export interface ComputedFieldsField extends FieldCommon {
  kind: "computedFields";
  contentType: string;
  definitions: { table: string; contentType: string; slug: string; template: string; fallback: string; weight: string };
}

/** The custom-fields feature: a JSON object column, its keys the names of the definitions that name the model. */
export interface CustomFieldsField extends FieldCommon {
  kind: "customFields";
  column: string;
  /** Where the custom fields are defined (the api's `customFields` models); absent: none can be. */
  definitions?: CustomFieldDefinitions;
}

/**
 * The custom-field definitions table (its columns named as Nautobot's CustomField fields:
 * `name`, `label`, `type`, `required`, `filter_logic`, `default`, `weight`, `validation_minimum`,
 * `validation_maximum`, `validation_regex`), the content types each applies to, and its
 * choices (`value`, `weight`, and `field`, the definition).
 */
export interface CustomFieldDefinitions {
  table: string;
  contentTypes: { table: string; source: string; target: string };
  registry: ContentTypeRegistry;
  choices: { table: string; field: string };
  /** The first API version that shows and takes the values keyed by the definitions' `slug` column instead of `name`. */
  slugKeysSince?: string;
}

/** Relationships defined at run time (the api's `relationships`): read with `include`, written as a whole. */
export interface RelationshipsField extends FieldCommon {
  kind: "relationships";
  /** The associations' table: deleting a row deletes those at either end. */
  associations: string;
}

/** A field of a model: one member per kind, each with exactly the facts its kind needs. */
/**
 * An uploaded image: `column` holds its name under the media root (`uploadTo` and the file's
 * name), `heightColumn` and `widthColumn` its size in pixels.
 */
export interface ImageField extends FieldCommon {
  kind: "imageFile";
  column: string;
  maxLength: number;
  uploadTo: string;
  heightColumn: string;
  widthColumn: string;
}

export type FieldDescriptor =
  | IdField | UrlField | DisplayField | ScalarField | ChoiceField | ListField | FkField | TreeParentField
  | M2mField | TagsField | IpFamilyField | CountField | ReverseField | FirstSetField | DepthField | CustomFieldsField | ComputedField
  | ComputedFieldsField | ContentTypeField | ContentTypesField | GenericField | RelationshipsField | StatusField | ImageField;

export type FieldKind = FieldDescriptor["kind"];

/** The descriptor of one kind: `FieldOf<"fk">` is `FkField`. */
export type FieldOf<K extends FieldKind> = Extract<FieldDescriptor, { kind: K }>;

/** Whether `version` is `limit` or older, in the API's own order of `versions`. */
/**
 * How a DRF-style boolean filter value may be spelled (django-filter's BooleanWidget and
 * Python's `str(True)`), shared by the filter compiler and the OpenAPI emitter.
 */
export const FILTER_TRUE: readonly string[] = ["true", "True", "1", "yes", "on"];
export const FILTER_FALSE: readonly string[] = ["false", "False", "0", "no", "off"];

export function atOrBefore(versions: string[], version: string, limit: string): boolean {
  return versions.indexOf(version) <= versions.indexOf(limit);
}

/** Whether a field is required in an API version: `required`, and not before its `requiredSince`. */
export function requiredIn(f: FieldDescriptor, version: string, versions: string[]): boolean {
  return f.required && (!f.requiredSince || atOrBefore(versions, f.requiredSince, version));
}

/** Whether a field (or an action's `servesList`) holds in an API version: not before its `since`, not after its `until`. */
export function inVersion(f: { since?: string; until?: string }, version: string, versions: string[]): boolean {
  return (!f.since || atOrBefore(versions, f.since, version)) && (!f.until || atOrBefore(versions, version, f.until));
}

/** The action answering the model's list in an API version, in place of its page of objects (`servesList`), if one does. */
export function listServedBy(m: ModelDescriptor, version: string, versions: string[]): NonNullable<ModelDescriptor["actions"]>[number] | undefined {
  return m.actions?.find((a) => a.servesList && inVersion(a.servesList, version, versions));
}

/** Whether a reverse relation is one object (or null) rather than a list in an API version. */
export function shownSingle(f: ReverseField, version: string, versions: string[]): boolean {
  const until = f.reverse.singleUntil;
  return until !== undefined && atOrBefore(versions, version, until);
}

/** The column a field is stored in, when it has one of its own row's. */
export function storedColumn(f: FieldDescriptor): string | undefined {
  return f.kind === "id" ? "id" : "column" in f ? f.column : undefined;
}

/**
 * One key of an ORDER BY (and of the index that serves it): a column, or an expression over it
 * (`expression` is given the column as SQL), with its direction.
 */
export interface SortTerm { column: string; expression?: (column: string) => string; desc: boolean; nullsFirst: boolean }

/**
 * How ordering by `f` sorts. A network field sorts as Nautobot's varbinary `host`/`network`
 * and `prefix_length` columns do: by the address bytes, compared bytewise (4 for IPv4, 16 for
 * IPv6, so `::1` < `10.0.0.1` < `2001::1` < `172.16.0.1`), then by mask length. The bytes are
 * those of PostgreSQL's binary inet form after its four-byte header, an IMMUTABLE expression an
 * index can hold. A link sorts nulls first; any other field by its column.
 */
export function sortTerms(f: FieldDescriptor, desc: boolean): SortTerm[] {
  const column = storedColumn(f);
  if (column === undefined) return [];
  if (f.kind === "scalar" && (f.type === "ip" || f.type === "cidr")) {
    return [
      { column, expression: (c) => `substring(inet_send(${c}) from 5)`, desc, nullsFirst: false },
      { column, expression: (c) => `masklen(${c})`, desc, nullsFirst: false },
    ];
  }
  return [{ column, desc, nullsFirst: isLink(f) }];
}

/** A link to one row of a model: a foreign key, or a tree node's parent. */
export function isLink(f: FieldDescriptor): f is FkField | TreeParentField {
  return f.kind === "fk" || f.kind === "treeParent";
}

/** A field holding other rows of a model (by join table, or by their key pointing here). */
export function isRelation(f: FieldDescriptor): f is FkField | TreeParentField | M2mField | TagsField | ReverseField {
  return "target" in f;
}

/** A piece of the display template: literal text, or a path of field names with an optional transform. */
/**
 * A piece of a display template: text, a field (or a path through links), or a section: the
 * first of its alternatives whose fields all have values, else nothing.
 */
export type DisplayPart = { text: string } | { path: string[]; last?: number; as?: DisplayTransform } | { first: DisplayPart[][] };

/** How a display path's value is turned into text besides its stored form: a choice's label (a content type's name), an integer list's runs. */
export type DisplayTransform = "display" | "ranges" | "isoformat";

export type FilterKind =
  | "uuid" | "string" | "number" | "boolean" | "choice" | "fk" | "date" | "datetime"
  | "tag" | "q" | "network" | "related" | "hasRelated" | "present" | "method" | "contains" | "contentTypes" | "status";

export type NetworkLookup =
  | "net_equals" | "net_contained" | "net_contained_or_equal" | "net_contains_or_equals"
  | "net_host_contained" | "family" | "mask_length" | "mask_length__gte" | "mask_length__lte" | "address";

export interface FilterDescriptor {
  /** The query parameter name, lookup suffix included (`name__ic`). */
  param: string;
  kind: FilterKind;
  /** The field it filters on; for `q`, the address field also searched by partial address. */
  field?: string;
  fields?: string[];
  /** `exact` for the plain filter; the suffix otherwise (`ic`, `n`, `gte`, …). */
  lookup: string;
  /** fk filters: match by id only (the `<fk>_id` form). */
  idOnly?: boolean;
  /** fk filters: the foreign keys followed from the filtered model, in order, to the model `field` belongs to. */
  via?: string[];
  /** fk filters: further (`field`, `via`) pairs; a row matches when any of them does. */
  alternatives?: Array<{ field: string; via?: string[] }>;
  network?: NetworkLookup;
  /**
   * related / hasRelated filters: rows of another model whose foreign key `column` points
   * here, named by id or by their `key` field (Nautobot's reverse NaturalKeyOrPK filters and
   * `has_<relation>` booleans).
   */
  related?: { table: string; column: string; key?: string };
  /** q filters: text columns (`key`) of the rows of other tables whose `column` points here, searched too. */
  searched?: Array<{ table: string; column: string; key: string }>;
  /**
   * method filters: what the filter takes, a model key (objects by id or natural key),
   * `boolean`, `string` (only `choices`, when given), `number` or `uuid` (ids of nothing in
   * particular); the hook gives the condition.
   */
  takes?: string;
  choices?: string[];
}

export type Operation = "list" | "retrieve" | "create" | "update" | "delete";

/** Fields unique together; `checkedBy: "django"`: by Django's model validation, and worded as it words them. */
export interface UniqueGroup { fields: string[]; checkedBy?: "django" }

/**
 * One key of a model's order: a field, ascending unless `desc`. With `through`, the field is one
 * of the row reached by following those links in turn (`device.name`: the device's name), as
 * Django orders by a foreign key through the related model's own ordering.
 */
export interface Ordering { field: string; desc: boolean; through?: string[] }

export interface ModelDescriptor {
  /** Content-type label: `<app>.<model lower-case>`. */
  key: string;
  name: string;
  app: string;
  route: string;
  table: string;
  verboseName: string;
  /** The name in running text, as Django's `verbose_name` (`device type`, `IP address`). */
  sentenceName: string;
  description: string;
  display: DisplayPart[];
  ordering: Ordering[];
  features: {
    tags: boolean;
    customFields: boolean;
    changeLogged: boolean;
    tree: boolean;
    ownedByRequester: boolean;
    /** Notes (the api's `noteModel`) attach to the objects: `notes_url` and the `<detail>/notes/` route. */
    notes?: boolean;
  };
  fields: FieldDescriptor[];
  nested: string[];
  brief: string[];
  naturalKey?: string;
  /** The foreign key or generic reference whose object a change of this model is also recorded against (ModelSpec.changeLogRelated). */
  changeLogRelated?: string;
  filters: FilterDescriptor[];
  uniqueTogether: UniqueGroup[];
  operations: Operation[];
  /** Names of this model's schemas under `components.schemas` of the OpenAPI documents. */
  components: { full: string; nested: string; brief: string; write: string; patch: string; list: string };
  /** WordPress-style presentation, written in the spec as is; absent for other profiles. */
  wordpress?: WpModelDescriptor;
  /** Rows are a view over other tables: nothing refers to them, nothing writes them. */
  view?: boolean;
  /** More list routes under the app: the rows whose `column` is set, with only `filters`. */
  listings?: Array<{ route: string; column: string; filters: string[] }>;
  /** Read-only views beside an object's detail (`…/<id>/<name>/`), answered by the hook module. */
  actions?: Array<{
    name: string; description: string; response: Record<string, unknown>; paginated?: boolean; onApp?: boolean;
    parameters?: Record<string, { description: string; required?: boolean }>;
    /** POST creates objects of this model (key) from the hook's `allocate.<name>`; `request` is one body item's schema. */
    creates?: { model: string; request: Record<string, unknown> };
    /** Answered for a POST (with a JSON body of schema `request`) rather than a GET. */
    method?: "POST";
    request?: Record<string, unknown>;
    /** A POST may also send multipart/form-data of this schema: the hook is given `form`. */
    multipart?: Record<string, unknown>;
    /** The permission action the requester must hold on the model, when not the method's. */
    permission?: string;
    /** The status of a successful answer, when not 200. */
    status?: number;
    /** Served at this path below the model's route, of no one object: literal segments and `{name}` placeholders. */
    path?: string[];
    /** Answers the model's list GET in these API versions (bounds included), instead of the list. */
    servesList?: { since?: string; until?: string };
  }>;
  /** The model's hook module, as the spec names it (`ipam/prefix`), and what it exports once loaded. */
  hookModule?: string;
  hooks?: ModelHooks;
  /**
   * The app that brings the model (its name in `PLUGINS`, `bgp`), and where its routes start below
   * the base path (`plugins/bgp`, instead of the model's app label): served only while enabled.
   */
  plugin?: { name: string; base: string };
}

/** Where a model's list is below the API's base path, without the trailing slash: `ipam/prefixes`, `plugins/bgp/peerings`. */
export function modelRoute(m: Pick<ModelDescriptor, "app" | "route" | "plugin">): string {
  return `${m.plugin?.base ?? m.app}/${m.route}`;
}

/** An app (Nautobot's plugin) that extends the API, as its PluginConfig describes it (`apps/<name>/app.ts`). */
export interface PluginDescriptor {
  /** Its name in `PLUGINS` and below `plugins/` (Nautobot's `base_url`). */
  name: string;
  /** The Django app label of its models (Nautobot's package name, `nautobot_bgp_models`). */
  label: string;
  /** Where its routes start below the base path (`plugins/bgp`). */
  base: string;
  verboseName: string;
  version: string;
  author: string;
  authorEmail: string;
  description: string;
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

/** The database handle a hook is given: the write's own transaction. */
export type HookDb = Knex | Knex.Transaction;

/**
 * A date or time as a hook meets it in a row: a Date as read from the database, ISO text as
 * written, or an SQL expression the write stores (`now()`).
 */
export type StoredTime = Date | string | Knex.Raw;

/** A model's stored row by field name; `generated/<api>/rows.ts` gives each model's own type. */
export type FieldRow = Record<string, unknown>;

/**
 * A save of one row, as the model's save hooks are given it: rows by field name (`R`, the
 * model's type from `generated/<api>/rows.ts`), JSON values parsed, links as ids. Hooks are
 * given runtime/hook-events.ts's SaveEvent, which adds every model of the api.
 */
export interface SaveEventBase<R extends object = FieldRow> {
  db: HookDb;
  model: ModelDescriptor;
  /** The row being updated, or null on create. */
  id: string | number | null;
  /**
   * What this write stores, by field name. A beforeSave hook may change, add or remove
   * values; the engine turns them into columns once it is done.
   */
  values: Partial<R>;
  /** The row as stored before this write; null on create. Read once per save by the engine. */
  before: Readonly<R> | null;
  /** The row as it will be stored: `before` under `values` as the hook is called (on create, the values alone). */
  after: Readonly<Partial<R>>;
  /**
   * The fields whose value this write changes: on create every field in `values`, on update
   * those whose value differs from `before`'s (a value written in another form than it is read
   * back, a date as text or a big integer as a number, counts as changed).
   */
  changed: ReadonlySet<keyof R & string>;
  /**
   * The link sets this write replaces, by field name: a many-to-many field's ids, a
   * content-types field's labels (the whole set each will hold).
   */
  links: Record<string, Array<string | number>>;
  /**
   * Runs a check's statement and judges what it found (`verdict` throws a Refusal to refuse the
   * write). Where the write's statements go ahead of their outcome (runtime/db/pipeline.ts), the
   * check goes ahead of them, and its verdict is taken, before theirs, when the operation waits
   * for them; elsewhere at once. `holds`, where the verdict can be said in SQL: true over the
   * statement's result rows `r` where `verdict` accepts them; a write that presumes
   * (runtime/db/presumed.ts) then has PostgreSQL take it, and waits for nothing.
   */
  check<T>(query: Knex.Raw | Knex.QueryBuilder, verdict: (found: T) => unknown, holds?: string): Promise<void>;
}

/** A save once the row (and its links) are written: `id` is the saved row's, `created` whether it is new. */
export interface SavedEventBase<R extends object = FieldRow> extends SaveEventBase<R> {
  id: string | number;
  created: boolean;
}

export interface DeleteEvent {
  db: HookDb;
  model: ModelDescriptor;
  ids: Array<string | number>;
}

/** Data whose `str()` a message shows: a related object's display text and id (a protecting object, runtime/problems.ts). */
export interface Dependent {
  display: string;
  id: string;
}

/** Rows about to be deleted, which a hook may read. */
export interface DeletingEvent<R extends object = FieldRow> extends DeleteEvent {
  /** The rows as stored, by field name, in the order of `ids`: read when first asked, once. */
  rows(): Promise<ReadonlyArray<Readonly<R>>>;
}

/**
 * The SQL condition of a method filter on the row aliased `alias` of `model`: `ids` is an SQL array of
 * the ids of the objects named (filters taking a model), `value` the boolean given, `values`
 * an SQL text (or uuid) array of the values given. `ids` carries bound values: use it once. SQL with
 * a `?` operator must escape it (`\\?`) or use the function form (`jsonb_exists_any`).
 */
export type MethodFilter = (q: { alias: string; model: ModelDescriptor; ids?: string; value?: boolean; values?: string }) => string;

/**
 * Where the row is one of a statement's many (a list's page, a bulk's answer): what a computed
 * value may work out once for the row, and once for all the statement's rows, rather than
 * again wherever the value names it.
 */
export interface StatementRows {
  /** `expr` (over the row), worked out once for the row. */
  once(expr: string): string;
  /**
   * `aggregate`, an aggregate call over expressions of the rows, worked out once for all of
   * them: its value is the same for each row.
   */
  whole(aggregate: string): string;
}

/**
 * The SQL expression of a computed field for the row aliased `alias` (same statement as the
 * read); `rows` where the row is one of a statement's many.
 */
export type ReadValue = (row: { alias: string; model: ModelDescriptor; rows?: StatementRows }) => string;

/**
 * An action's answer. Declared as a method so that a hook may take the whole event the
 * engine gives (runtime/hook-events.ts's ActionEvent) where this contract states only its base.
 */
export type ActionHook = { answer(event: ActionEventBase): Promise<unknown> }["answer"];
/** What a POST to an action that creates objects creates (runtime/hook-events.ts's AllocateEvent; see ActionHook). */
export type AllocateHook = { allocate(event: AllocateEventBase): Promise<Allocation> }["allocate"];

/**
 * What a model's hook module (`hooks/<api>/<name>.ts`, named by the spec's `hooks`) may export.
 * The engine calls the write hooks inside the write's transaction, on every profile. Each is
 * given its event with the engine's own parts as well (runtime/hook-events.ts), which a hook's
 * parameter type may name: hooks are methods, so the wider event is accepted.
 */
export interface ModelHooks<R extends object = FieldRow> {
  /** After every field is valid and before the row is written: check across fields, or fill values. */
  beforeSave?(event: SaveEventBase<R>): void | Promise<void>;
  /**
   * Instead of `beforeSave`, for checks that cost a statement: the rows of a bulk create in one
   * call (checked together, and against each other as well as the stored rows), any other save
   * as a set of one. A refusal of a set is looked for again row by row, one save at a time, so
   * that the error names its element: the hook may refuse a set at the first row it finds wrong.
   */
  beforeSaveSet?(events: Array<SaveEventBase<R>>): void | Promise<void>;
  /** After the row (and its links) are written. */
  afterSave?(event: SavedEventBase<R>): void | Promise<void>;
  /**
   * Objects the rows' own rules say must stay while the rows do (Django's ProtectedError from a
   * model's delete()), asked with the protecting foreign keys, before anything is taken along:
   * any refuses the delete (409).
   */
  protectedBy?(event: DeletingEvent<R>): Promise<Dependent[]>;
  /** Before rows are deleted (after the protection check). */
  beforeDelete?(event: DeletingEvent<R>): void | Promise<void>;
  /** After rows are deleted. */
  afterDelete?(event: DeleteEvent): void | Promise<void>;
  /** The values of the model's `computed` fields, by field name. */
  readValues?: Record<string, ReadValue>;
  /** The conditions of the model's method filters, by parameter (the spec's `filters.methods`). */
  filters?: Record<string, MethodFilter>;
  /** The answers of the model's actions, by action name (undefined: an empty 200). */
  actions?: Record<string, ActionHook>;
  /** What a POST to an action that `creates` objects creates, by action name. */
  allocate?: Record<string, AllocateHook>;
}

/**
 * A POST to an action that creates objects: `items` is the body (a single object as a list of
 * one), `db` the transaction the objects will be created in. Runs one at a time per action
 * across every server instance (a transaction-scoped lock), so what it finds free stays free.
 * Requests that arrive together run in one transaction, one after another: a request sees
 * what the requests on other objects before it created; the objects of the requests on the
 * same object are created together once all of them were allocated, so what those before it
 * took is in the memo only.
 */
export interface AllocateEventBase extends ActionEventBase {
  items: Array<Record<string, unknown>>;
  /**
   * What the hook kept from the request before this one, on the same object and in the same
   * transaction (empty otherwise): what the requests before took, whose objects are not yet
   * written, and room found once that can serve the next requests without searching again.
   */
  memo: Record<string, unknown>;
  /**
   * What the hook leaves for the next batch on the same object, kept for a moment after this
   * one committed and dropped by any update or delete of the model it creates: hints, not
   * facts, since other transactions may have written in between, so the hook checks what it
   * takes from here before relying on it.
   */
  carried: Record<string, unknown>;
  /** Items asked for by this request and by those waiting after it on the same object: room worth finding at once. */
  queued: number;
}

/** The bodies of the objects to create, one per item; or, when there is no room, why (a 204). */
export type Allocation = { create: Array<Record<string, unknown>> } | { shortage: string };

/**
 * A request for an action of one object: the object exists and the requester may view it.
 * Hooks are given runtime/hook-events.ts's ActionEvent, which adds the engine, the actor and
 * lists by filter plan.
 */
export interface ActionEventBase {
  db: HookDb;
  model: ModelDescriptor;
  /** The object's id; null for an action served on the app. */
  id: string | null;
  /** The request's query parameters (repeated ones in order). */
  params: Map<string, string[]>;
  /** How many items the request asks for, under the profile's page-size rules (null: no bound). */
  limit: number | null;
  /**
   * Rows of any models as the API shows them (`nested` inside other objects, or `full`),
   * in the order asked; null for a row that does not exist. One statement per model.
   */
  read(refs: Array<{ model: string; id: string }>, shape: "nested" | "full"): Promise<Array<Record<string, unknown> | null>>;
  /** The request's API version. */
  version: string;
  /** What the placeholders of an action served at a `path` took, by name (empty otherwise). */
  path: Record<string, string>;
  /** A POST's JSON body (undefined for a GET, and for a multipart one). */
  body?: unknown;
  /** A POST's multipart/form-data, for an action that takes it: each field's last value, and the files by field. */
  form?: { fields: Record<string, string>; files: Record<string, { filename: string; content: Buffer }> };
  /**
   * The condition rows of `m` (aliased `alias`) must meet for the requester's permission
   * `action` (view, run, …): null when every row does.
   */
  permitted(m: ModelDescriptor, action: string, alias: string): { sql: string; bindings: unknown[] } | null;
  /** Runs a GraphQL request as the requester, when the api serves GraphQL: what /graphql/ would answer, and its status. */
  graphql?(request: { query: unknown; variables?: unknown }): Promise<{ status: number; body: unknown }>;
}

/** A page an action chose itself (hook-events.ts's ActionEvent.list), rather than a whole list for the profile to cut. */
export interface ActionPage {
  count: number;
  results: Array<Record<string, unknown>>;
}

export const HOOK_NAMES: ReadonlyArray<keyof ModelHooks> = ["beforeSave", "beforeSaveSet", "afterSave", "protectedBy", "beforeDelete", "afterDelete", "readValues", "filters", "actions", "allocate"];

/** An argument of a WordPress route, as the REST index lists it. */
export interface WpArg { type?: string; description?: string; default?: unknown; enum?: unknown[]; items?: Record<string, unknown>; required: boolean }
/**
 * What serves a WordPress endpoint: the namespace's index or document, a model's archive or
 * create, or one record's read, update or delete (the record named by the route's `id` or `slug`).
 */
export type WpView = "namespace" | "doc" | "archive" | "create" | "read" | "update" | "delete";
export interface WpEndpoint { methods: string[]; view: WpView; args: Record<string, WpArg> }
/** A WordPress route: its regex as WordPress shows it, the model it serves, and its endpoints in registration order. */
export interface WpRoute { regex: string; model?: string; endpoints: WpEndpoint[] }

/** What a DRF-style route serves: the view module (runtime/profiles/drf/views/) that answers it. */
export type DrfView =
  | "root" | "app-root" | "list" | "detail" | "listing" | "action" | "notes" | "settings" | "status"
  | "docs" | "redoc" | "swagger" | "graphql" | "login" | "logout" | "filterset-fields" | "redirect"
  | "plugins" | "installed-plugins";

/**
 * A route of a DRF-style API, decided by the generator (generator/ir/drf-routes.ts): the
 * runtime dispatches from this table, in its order (the first route that fits a path takes it).
 */
export interface DrfRoute {
  /** Below the base path: `/`-separated literal segments and `{name}` placeholders; a trailing `/` is its own (empty) segment. */
  path: string;
  view: DrfView;
  /** The methods it answers besides OPTIONS (HEAD with GET); `*` any method. */
  methods: string[];
  /** The placeholders of `path`, in order. */
  params: string[];
  /** The model served (list, detail, listing, notes, settings) or whose hook answers the action. */
  model?: string;
  /** The action's name (action), or the lookup served (filterset-fields: `lookup-choices`, `lookup-value-dom-element`). */
  action?: string;
  /** app-root: the app listed (an app's label, or where an app's routes start: `plugins/bgp`). */
  app?: string;
  /** The app (`PLUGINS` name) whose route this is: served only while the app is enabled. */
  plugin?: string;
  /** swagger: the forms the document is offered in. */
  document?: "json" | "yaml" | "both";
  /** An action at a path of its own: its placeholders take non-empty segments only, URL-decoded. */
  pathAction?: boolean;
  /** list: the action answering the list's GET instead in the API versions given (bounds included). */
  listedBy?: { action: string; since?: string; until?: string };
  /** redirect: methods answered 404 rather than redirected. */
  except?: string[];
}

/**
 * A route a cross-cutting feature serves below each object of a model that has the feature, as
 * data: the generator's route table takes it from here (so the server and the documents have
 * it), and the feature claims it (runtime/features/, `Feature.routes`). One declaration.
 */
export interface FeatureRoute {
  /** The feature, as a model's `features` names it. */
  feature: "notes";
  /** Where it hangs: below one object's detail route. */
  below: "detail";
  /** Its path below that, with the trailing slash. */
  path: string;
  view: DrfView;
  methods: string[];
}

export const FEATURE_ROUTES: readonly FeatureRoute[] = [
  // Nautobot's NotesViewSetMixin: an object's notes listed, and a note written as the object's.
  { feature: "notes", below: "detail", path: "notes/", view: "notes", methods: ["GET", "POST"] },
];

/** Settings of the DRF-style profile (the names are Nautobot's). */
export interface DrfSettings {
  /** Page size when a list request gives no `limit` (default 50). */
  PAGINATE_COUNT: number;
  /** Largest `limit` honoured; `limit=0` gives this many (no cap when absent). */
  MAX_PAGE_SIZE: number;
  /** Unknown filter parameters are a 400 (default true); false ignores them. */
  STRICT_FILTERING: boolean;
  /**
   * Unknown keys in a write body are a 400 (`Unknown field.`) when true; by default they are
   * ignored, as DRF ignores them. Read-only keys are ignored either way.
   */
  STRICT_WRITE_FIELDS: boolean;
  /** Model keys (`dcim.site`) or `"*"` that anonymous requests may read. */
  EXEMPT_VIEW_PERMISSIONS: string[];
  /**
   * Versions `/status/` reports, keyed as the original's clients read them (Nautobot's
   * `nautobot-version`, `django-version`, `python-version`): the release whose API behaviour
   * the server implements.
   */
  STATUS: Record<string, string>;
}

/** Settings of the WordPress-style profile. */
export interface WordpressSettings {
  /** The site's IANA timezone: wall times without a zone are read in it (default UTC). */
  timezone: string;
  /** Page size when a list request gives no `per_page` (default 10). */
  PER_PAGE: number;
  /** Largest `per_page` honoured (default 50). */
  MAX_PER_PAGE: number;
  /** Radius of the `geoloc_lat`/`geoloc_lng` fence, in GEOFENCE_UNIT (default 25). */
  GEOFENCE_RADIUS: number;
  GEOFENCE_UNIT: "miles" | "kms";
}

/** Each profile's settings, by profile name. */
export interface ProfileSettings {
  drf: DrfSettings;
  wordpress: WordpressSettings;
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
  /** Identities: users, their tokens, and the users' JSON field of own settings (served at `<users app>/config/`). */
  auth?: { users: string; tokens?: string; settings?: string };
  tagModel?: string;
  /**
   * Model key of the webhook definitions (fields named as Nautobot's Webhook: a content-types
   * field, `name`, `type_create`, `type_update`, `type_delete`, `payload_url`, `enabled`,
   * `http_method`, `http_content_type`, `additional_headers`, `body_template`, `secret`,
   * `ssl_verification`, `ca_file_path`): what runtime/webhooks/ sends after a change.
   */
  webhooks?: string;
  /** Model key of the export templates `?export=<name>` renders on lists (ApiSpec.exportTemplates). */
  exportTemplates?: string;
  /** Model key of the notes that the `notes` feature attaches to objects. */
  noteModel?: string;
  /** Model keys of the relationship definitions and their associations (ApiSpec.relationships). */
  relationships?: { definitions: string; associations: string };
  /** Model keys of the object permissions (fields as Nautobot's ObjectPermission) and the user groups they name. */
  permissions?: { objectPermissions: string; groups: string };
  /** Model keys of the job records, their results, their log entries, their schedules and the job hooks (ApiSpec.jobs), for runtime/features/jobs/. */
  jobs?: { jobs: string; results: string; logs: string; schedules?: string; hooks?: string };
  /** Model key of the change records (fields as Nautobot's ObjectChange) every operation's writes leave. */
  changeLog?: string;
  /** Primary keys: random UUIDs (default) or database-assigned integers. */
  idType?: "uuid" | "serial";
  /** Model key of per-user application passwords. */
  appPasswords?: string;
  /** WordPress-style APIs: the route table, decided by the generator. */
  routes?: WpRoute[];
  /** DRF-style APIs: the route table, decided by the generator. */
  drfRoutes?: DrfRoute[];
  /** The apps that extend the API (served while `PLUGINS` names them), by name. */
  plugins?: PluginDescriptor[];
  models: ModelDescriptor[];
  /**
   * Where the OpenAPI document of each API version is (its file, as emitted), by version: read
   * when first served (runtime/artifacts.ts `openApiDocument`), never held by the descriptor.
   */
  openapiFiles: Record<string, string>;
  /**
   * The same documents, each parsed afresh from its file whenever it is read (two reads give
   * two copies): the process holds none of them, only what each reader derives.
   */
  openapi: Record<string, unknown>;
  /** Where the GraphQL schema (SDL) the generator emitted is, when the API serves GraphQL. */
  graphqlFile?: string;
  /** Migrations in order: file name and SQL. */
  migrations: Array<{ name: string; sql: string }>;
  /** Each app's migrations (`apps/<name>/migrations/`), by app folder name: applied after the API's own. */
  appMigrations: Array<{ app: string; migrations: Array<{ name: string; sql: string }> }>;
}

/** How a migration's header names a migration it replaces (`<stream>/<file>`): one line each, before the first blank line. */
export const REPLACES = "-- Replaces: ";
