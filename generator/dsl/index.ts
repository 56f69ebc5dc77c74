// The spec language: the types and identity helpers that spec files import.
// Takes plain object literals, gives them back tagged and typed; it computes nothing and
// never runs at request time. Everything here is data the generator's passes read.

import type { DrfSettings, WordpressSettings, WpModelDescriptor } from "../../runtime/descriptor.js";

export type ChoiceValue = string | number;

export interface ChoiceSet {
  kind: "choices";
  name: string;
  values: ReadonlyArray<readonly [ChoiceValue, string]>;
}

/** A named set of `[value, label]` pairs, shown to clients as `{value, label}`. */
export function choices(name: string, values: ReadonlyArray<readonly [ChoiceValue, string]>): ChoiceSet {
  return { kind: "choices", name, values };
}

/**
 * Who refuses a duplicate, as Nautobot's serializers arrange it, and so its words: `"drf"` (the
 * default), a validator DRF's ModelSerializer adds: `{"name": ["site with this name already
 * exists."]}` (model and field verbose names as declared), `{"non_field_errors": ["The fields
 * site, name must make a unique set."]}`; `"django"`, Django's Model.validate_unique, where the
 * serializer declares the field itself or sets `validators = []`: `{"master": ["Virtual chassis
 * with this Master already exists."]}`, `{"__all__": ["Device with this Site, Tenant and Name
 * already exists."]}`.
 */
export const UNIQUE_CHECKS: ReadonlyArray<string> = ["drf", "django"];
export type UniqueCheck = "drf" | "django";

/** A `uniqueTogether` group with who checks it. */
export interface UniqueGroup {
  fields: string[];
  checkedBy: UniqueCheck;
}

/** Options every field type accepts. */
export interface CommonFieldOptions {
  description?: string;
  /** Human label (OPTIONS `label`); derived from the field name when absent. */
  label?: string;
  /** Required on create and PUT. */
  required?: boolean;
  /** `null` accepted on write and returned on read. */
  nullable?: boolean;
  unique?: boolean;
  /** Who checks `unique`, which decides how a duplicate is worded (see `UniqueCheck`). */
  uniqueCheckedBy?: UniqueCheck;
  /**
   * Django's `verbose_name` where the model field declares one (`"Asset tag"`, `"Primary IPv4"`),
   * as uniqueness refusals quote it; else the name with spaces for underscores.
   */
  verboseName?: string;
  /** The model field's own `error_messages["unique"]` (Django's User.username), which replaces the wording. */
  uniqueMessage?: string;
  /** Value used when a create leaves the field out. `"now"`/`"today"` for date types. */
  default?: unknown;
  readOnly?: boolean;
  /** Accepted on write, never shown (passwords); with readOnly, neither (an internal owner column). */
  writeOnly?: boolean;
  /**
   * Read-only, and shown only in the short forms that name it (`nested`, `brief`), never in the
   * full one: Nautobot's nested scheduled job shows a `start_time` its full serializer leaves out.
   */
  nestedOnly?: boolean;
  /**
   * First API version that shows the field (`"1.3"`): earlier versions neither show nor accept
   * it (responses, OPTIONS, OpenAPI), and a create through them gives the field its `default`,
   * so a required field with `since` needs one.
   */
  since?: string;
  /** Last API version that shows the field. */
  until?: string;
  /**
   * First API version that requires the field (with `required: true`); earlier ones take it as
   * optional (Nautobot's custom-field `label`, required from API 1.4).
   */
  requiredSince?: string;
  /**
   * Shown by a GET only when its `include` parameter names the field (Nautobot's
   * `include=computed_fields`); always shown in the replies to writes.
   */
  optIn?: boolean;
  /** Database column name when it differs from the field name. */
  column?: string;
  /**
   * The field's name before a rename: the next migration renames its column instead of
   * dropping the old one (and its data). Harmless once that migration exists.
   */
  renamedFrom?: string;
  /**
   * The value existing rows get when a migration makes this field required (adds it NOT NULL,
   * or sets NOT NULL on a column that may hold nulls). Without it (or a default) that step is refused.
   */
  backfill?: unknown;
}

export interface StringOptions extends CommonFieldOptions {
  maxLength?: number;
  minLength?: number;
  /** Empty string allowed (the default for optional strings). */
  blank?: boolean;
  /** A regular expression the value must match, with the message used when it does not. */
  pattern?: { regex: string; message: string };
  /**
   * Fill from another field when absent on create: a slug made from `name`; from several,
   * joined by dashes, where `fk.field` reads a field of the related row (a location's
   * `["parent.slug", "name"]`, Nautobot's populate_from). Kept free by a numbered suffix.
   */
  slugFrom?: string | string[];
  /** A slug made by `slugFrom` has underscores where it would have dashes (Nautobot's slugify_dashes_to_underscores). */
  slugUnderscores?: boolean;
  /** Generated when absent on create: a random hex key of this many characters. */
  randomHex?: number;
  format?: "email" | "url" | "color";
  /**
   * Kept by the server (date and datetime fields): set to now on create, and also on every
   * update with `"update"`. Implies readOnly; filtered by exact, `__gte` and `__lte` only.
   */
  autoNow?: "create" | "update";
  /** JSON fields: the JSON schema values must follow (documented, and checked on write). */
  schema?: Record<string, unknown>;
  /**
   * Strings and texts: indexed for substring search (a GIN index of the value's lower-cased
   * three-character pieces, runtime function armature_trigrams), which `q` consults before
   * its ILIKE: a search of three characters or more reads only rows holding all its pieces.
   */
  searchIndexed?: boolean;
}

export interface NumberOptions extends CommonFieldOptions {
  min?: number;
  max?: number;
  /** Decimals (required there): at most this many digits in all… */
  maxDigits?: number;
  /** …and this many after the point. Shown as strings with exactly these places, as DRF does. */
  decimalPlaces?: number;
}

export type ScalarType =
  | "uuid" | "string" | "text" | "integer" | "float" | "decimal" | "boolean" | "date" | "datetime" | "json"
  | "cidr" | "ip" | "password";

export interface ScalarField extends StringOptions, NumberOptions {
  kind: "scalar";
  type: ScalarType;
}

export interface ChoiceField extends CommonFieldOptions {
  kind: "choice";
  choices: ChoiceSet;
  blank?: boolean;
  /** Read as the bare value, not `{value, label}` (DRF's own ChoiceField, where a serializer keeps it). */
  plain?: boolean;
  /**
   * Read as the bare value in nested and brief forms only: the full serializer declares the
   * choice field, the nested one leaves the model field to DRF (a service's `protocol`).
   */
  plainWhenNested?: boolean;
}

/**
 * A list of values in one JSON column, as DRF's ListField(child=...) over Nautobot's
 * JSONArrayField: written and read as a JSON array, each item checked on its own.
 */
export interface ListField extends CommonFieldOptions {
  kind: "list";
  /** The items: integer fields (`field.integer({ min, max })`) only, so far. */
  of: ScalarField;
}

export interface IpFamilyField extends CommonFieldOptions {
  kind: "ipFamily";
  /** The cidr/ip field whose family this reports. */
  from: string;
}

export interface CountField extends CommonFieldOptions {
  kind: "count";
  /**
   * `"app.Model.field"`: count rows of that model whose foreign key (or many-to-many link, or
   * generic reference) `field` points here. On the api's tagModel, `"tags"`: the objects
   * carrying the tag.
   */
  of: string;
  /** Count rows pointing at this object's descendants too (tree models). */
  descendants?: boolean;
  /**
   * Keep the count in a column of this model's table, brought up to date by triggers on the
   * counted rows, rather than counting at every read: for counts that many reads show and
   * few writes change (WordPress keeps a term's in term_taxonomy.count). A foreign key or a
   * many-to-many link only (no descendants, generic reference or tags).
   */
  stored?: boolean;
}

export interface ReverseField extends CommonFieldOptions {
  kind: "reverse";
  /** `"app.Model.field"`: the objects of that model whose foreign key `field` points here. */
  of: string;
  /** Up to this API version the field is one nested object or null (a 412 when several exist); a list after it. */
  singleUntil?: string;
  /**
   * One object or null, reached through the one row pointing here: that row's foreign key
   * `show` in nested form, with the row itself nested under `as` (a device's `parent_device`:
   * `{ of: "dcim.DeviceBay.installed_device", through: { show: "device", as: "device_bay" } }`).
   */
  through?: { show: string; as: string };
}

export interface FirstSetField extends CommonFieldOptions {
  kind: "firstSet";
  /** Foreign keys of this model, all to one model, in order of preference. */
  fields: string[];
}

export interface FkField extends CommonFieldOptions {
  kind: "fk";
  /** `"app.Model"`, resolved by name so load order never matters. */
  target: string;
  /** What happens to this row when the target is deleted. Default: protect (409). */
  onDelete?: "protect" | "cascade" | "setNull";
  /** Set from the authenticated user on create and never writable (token owner). */
  fromRequestUser?: boolean;
  /** Inside nested and brief forms, the bare id rather than the target's nested form (a component's `cable`). */
  idWhenNested?: boolean;
  /** In every form the bare id (DRF's PrimaryKeyRelatedField, where a serializer leaves the link to DRF: a job log entry's `job_result`). */
  asId?: boolean;
  /**
   * The target's fields shown for this link instead of its nested form (`id`, `url` and
   * `display` always), as a serializer made for one relation (a circuit's terminations).
   */
  shape?: string[];
  /**
   * The name the target's rows give the rows pointing at them (Django's `related_name`: a
   * GraphQL type's reverse list), where it is not this model's plural; `"+"`: none.
   */
  relatedName?: string;
  /** Django's OneToOneField: the target's reverse (`relatedName`) is one object or null, not a list. */
  oneToOne?: boolean;
}

export interface M2mField extends CommonFieldOptions {
  kind: "m2m";
  target: string;
  /** Read and written as the targets' `slug`s, not nested objects (DRF's SlugRelatedField: a config context's tags). */
  bySlug?: boolean;
  /**
   * In nested and brief forms, the targets' values of this field (in its order) rather than
   * nested objects: Nautobot's nested object permission lists its groups' names and its users'
   * usernames.
   */
  keyWhenNested?: string;
  /** The name the targets give the rows linking them (Django's `related_name`: a GraphQL type's reverse list); none when absent. */
  relatedName?: string;
}

export interface ComputedField extends CommonFieldOptions {
  kind: "computed";
  /** The JSON schema of the value (OpenAPI documents it; the hook must produce it). */
  schema: Record<string, unknown>;
  /** Left out, and not computed, when a read's `exclude` parameter names it (Nautobot's `exclude=config_context`). */
  excludable?: boolean;
}

/**
 * The model of a row a generic reference points at, as its content-type label (`dcim.interface`):
 * read and written as that plain string, one of `models`.
 */
export interface ContentTypeField extends CommonFieldOptions {
  kind: "contentType";
  /** The models (`"dcim.Interface"`) the field may name… */
  models?: string[];
  /** …or every model that has this feature. */
  feature?: ContentTypeScope;
}

/**
 * A link to a row of any of several models (Django's GenericForeignKey): read only, shown as
 * that row's nested form, found through a contentType field and a uuid field of this model.
 */
export interface GenericField extends CommonFieldOptions {
  kind: "generic";
  /** The contentType field naming the row's model… */
  type: string;
  /** …and the uuid field holding its id. */
  id: string;
  /**
   * `cascade`: deleting the row pointed at deletes this one too (Django's GenericRelation on the
   * target, as an interface takes its IP addresses along). Otherwise nothing follows the target.
   */
  onDelete?: "cascade";
  /**
   * The name the target's rows give the rows pointing at them (Django's `related_name`: a
   * GraphQL type's reverse list), where it is not this model's plural; `"+"`: none.
   */
  relatedName?: string;
}

/**
 * A list of content-type labels (`["dcim.device", "ipam.prefix"]`), each naming one of the
 * models allowed: those with a `feature` (computed from the specs, so a model that gains the
 * feature is allowed without touching this field), or the `models` listed. Stored as links to
 * the API's content-type registry (api `contentTypes`). `default: "all"`: a create that leaves
 * it out gets every allowed model. On the API's `tagModel`, a field of the `tags` feature is
 * the tag's scope: a tag applies only to objects of the models it names, and a model cannot
 * leave the list while objects of it carry the tag.
 */
export interface ContentTypesField extends CommonFieldOptions {
  kind: "contentTypes";
  feature?: ContentTypeScope;
  /** `"app.Model"` names. */
  models?: string[];
}

/**
 * A status: one of the rows of the api's `statusModel` whose content types include this model,
 * as Nautobot's StatusField. The column holds the status's slug (a foreign key to it, following a
 * renamed slug, refusing to delete a status in use); read as `{value: slug, label: name}`,
 * written as a slug (lower-cased), offered in OPTIONS and filters as the rows say at the time.
 * `defaults`: the statuses the model starts with (each a row of the status model, same name),
 * linked to the model by the migration that adds the field.
 */
export interface StatusField extends CommonFieldOptions {
  kind: "status";
  defaults?: ChoiceSet;
}

/**
 * An uploaded image (Django's ImageField): written as a file part of a multipart/form-data
 * body, kept in the media folder (MEDIA_ROOT) under `uploadTo`, read as its URL. Only PNG, JPEG
 * and GIF images up to UPLOAD_LIMIT bytes are taken; `height` and `width` name read-only integer
 * fields of the model that take the image's size. The file goes when its row is deleted.
 */
export interface ImageField extends CommonFieldOptions {
  kind: "imageFile";
  /** The folder under the media root, with a trailing slash (`image-attachments/`). */
  uploadTo: string;
  height: string;
  width: string;
  /** The longest name the column keeps, folder included (Django's default 100). */
  maxLength?: number;
}

export type FieldSpec =
  | ScalarField | ChoiceField | ListField | IpFamilyField | CountField | ReverseField | FkField | FirstSetField | M2mField | ComputedField | ContentTypeField
  | ContentTypesField | GenericField | StatusField | ImageField;

function scalar(type: ScalarType) {
  return (options: StringOptions & NumberOptions = {}): ScalarField => ({ kind: "scalar", type, ...options });
}

export const field = {
  uuid: scalar("uuid"),
  string: scalar("string"),
  text: scalar("text"),
  integer: scalar("integer"),
  float: scalar("float"),
  decimal: scalar("decimal"),
  boolean: scalar("boolean"),
  date: scalar("date"),
  datetime: scalar("datetime"),
  json: scalar("json"),
  cidr: scalar("cidr"),
  ip: scalar("ip"),
  password: scalar("password"),
  choice: (set: ChoiceSet, options: CommonFieldOptions & { blank?: boolean; plain?: boolean; plainWhenNested?: boolean } = {}): ChoiceField => ({
    kind: "choice", choices: set, ...options,
  }),
  /** A JSON array of `of` items (`field.list(field.integer({ min: 1, max: 65535 }), { required: true })`). */
  list: (of: ScalarField, options: CommonFieldOptions = {}): ListField => ({ kind: "list", of, ...options }),
  ipFamily: (options: CommonFieldOptions & { from: string }): IpFamilyField => ({ kind: "ipFamily", ...options }),
  count: (options: CommonFieldOptions & { of: string; descendants?: boolean; stored?: boolean }): CountField => ({
    kind: "count", ...options,
  }),
  /** Read only, computed in SQL by the model's hook module: `readValues: { <field>: ({ alias }) => sql }`. */
  computed: (options: CommonFieldOptions & { schema: Record<string, unknown>; excludable?: boolean }): ComputedField => ({ kind: "computed", ...options }),
  contentType: (options: Omit<ContentTypeField, "kind">): ContentTypeField => ({ kind: "contentType", ...options }),
  contentTypes: (options: Omit<ContentTypesField, "kind">): ContentTypesField => ({ kind: "contentTypes", ...options }),
  /** A status row of the api's `statusModel` (`field.status({ required: true, defaults: SiteStatus })`). */
  status: (options: Omit<StatusField, "kind"> = {}): StatusField => ({ kind: "status", ...options }),
  image: (options: Omit<ImageField, "kind">): ImageField => ({ kind: "imageFile", ...options }),
};

export const ref = {
  fk: (target: string, options: Omit<FkField, "kind" | "target"> = {}): FkField => ({ kind: "fk", target, ...options }),
  m2m: (target: string, options: Omit<M2mField, "kind" | "target"> = {}): M2mField => ({ kind: "m2m", target, ...options }),
  /** Read-only: the objects whose foreign key points at this one (`ref.reverse("ipam.IPAddress.nat_inside")`). */
  reverse: (of: string, options: Omit<ReverseField, "kind" | "of"> = {}): ReverseField => ({ kind: "reverse", of, ...options }),
  /** Read-only: the first of several foreign keys to one model that is set (`ref.firstSet(["primary_ip6", "primary_ip4"])`). */
  firstSet: (fields: string[], options: Omit<FirstSetField, "kind" | "fields"> = {}): FirstSetField => ({ kind: "firstSet", fields, ...options }),
  /** Read-only: the row named by a contentType field and a uuid field (`ref.generic({ type: "termination_a_type", id: "termination_a_id" })`). */
  generic: (options: Omit<GenericField, "kind">): GenericField => ({ kind: "generic", ...options }),
};

export type Feature =
  /** `tags`: a list of extras tags, filterable with `tag`. */
  | "tags"
  /** `custom_fields`: a JSON object of custom-field values. */
  | "customFields"
  /** `created` (date) and `last_updated` (date-time), kept by the database. */
  | "changeLogged"
  /** A `parent` foreign key to the same model, a read-only `_depth`, and filters that match descendants. */
  | "tree"
  /** Rows belong to the requesting user: lists and lookups see only the requester's rows. */
  | "ownedByRequester"
  /** `notes_url` and the `<detail>/notes/` route: notes (the api's `noteModel`) attached to the object. */
  | "notes";

/** Every feature, in the order messages list them. */
export const FEATURES: ReadonlyArray<Feature> = ["tags", "customFields", "changeLogged", "tree", "ownedByRequester", "notes"];

/**
 * What a contentType(s) field may name: the models with a feature, (`statuses`) the models
 * with a `status` field, as Nautobot's FeatureQuery("statuses"), or (`all`) every model the
 * api's content-type registry lists (an object permission's object types).
 */
export type ContentTypeScope = Feature | "statuses" | "all";
export const CONTENT_TYPE_SCOPES: ReadonlyArray<ContentTypeScope> = [...FEATURES, "statuses", "all"];

export interface FilterSpec {
  /**
   * Fields searched (case-insensitive contains) by the free-text `q` filter; an integer field
   * matches a search that is a whole number, exactly (a VLAN's `vid`); a contentTypes field, by
   * the model names it lists (a tag's, as Nautobot's `content_types__model`). `app.Model.fk.field`
   * searches a field of the rows of another model whose `fk` points here (a device's
   * inventory items' serials: `dcim.InventoryItem.device.serial`).
   */
  q?: string[];
  /** A cidr or ip field `q` also searches by partial address, as Nautobot's `string_search` (`10.1` → inside 10.1.0.0/16). */
  qAddress?: string;
  /**
   * Extra named filters built on a field: `{ within: { field: "prefix", lookup: "net_contained" } }`;
   * `contains` on a list field takes one item and matches the rows whose list holds it.
   */
  extra?: Record<string, { field: string; lookup: FilterLookup }>;
  /** Fields that get no filter at all. */
  exclude?: string[];
  /**
   * Filters on a foreign key of a related object, reached through one of this model's own:
   * `{ tenant_group: "tenant.group" }` gives `tenant_group` (id or natural key, descendants
   * of a tree), `tenant_group_id` and their `__n` forms, as Nautobot's tenancy filter mixin.
   * A list of paths matches when any does (a cable's `device`: `["termination_a_device",
   * "termination_b_device"]`); a path of one segment is a foreign key of this model itself,
   * a longer one follows foreign keys from model to model (`device.site.region`).
   */
  via?: Record<string, string | string[]>;
  /**
   * Filters on the rows of another model that point here, as Nautobot's reverse filters:
   * `{ racks: { of: "dcim.Rack.role", key: "name" } }` gives `racks` and `racks__n` (rows by
   * id or `key`) and `has_racks` (true: some row points here; false: none).
   */
  related?: Record<string, { of: string; key?: string }>;
  /**
   * A field's filters under another name too (`{ role: "device_role" }` gives `role`,
   * `role_id` and their lookups); list the field in `exclude` to offer only the alias.
   */
  aliases?: Record<string, string>;
  /**
   * Boolean filters on whether a field holds a value: `{ cabled: "cable" }` gives `cabled=true`
   * (the field is set; for a boolean field, true) and `cabled=false` (null, or false). With a
   * list, true when any of the fields is set (`{ has_primary_ip: ["primary_ip4", "primary_ip6"] }`).
   * The filter may take the name of the field it tests when that field makes no filter (JSON).
   * A many-to-many field is set when it links any row (Nautobot's `has_tagged_vlans`).
   */
  present?: Record<string, string | string[]>;
  /**
   * Boolean filters on whether rows of another model point here, as Nautobot's
   * RelatedMembershipBooleanFilter: `{ has_interfaces: "dcim.Interface.device" }`.
   */
  membership?: Record<string, string>;
  /**
   * Filters whose condition the model's hook module gives, as Nautobot's `method=` filters.
   * `{ subtree: { takes: "dcim.Location" } }` takes objects of that model by id or natural key
   * (several OR'd; one that names nothing is a 400), and the hook's `filters.subtree({ alias,
   * ids })` gives the condition, `ids` an SQL array of their ids; `{ takes: "boolean" }` takes
   * true or false, given to the hook as `value`; `{ takes: "string", choices? }` takes text
   * values (only `choices`, when given), given as `values`, an SQL text array; `{ takes: "number" }`
   * takes decimal numbers, `values` an SQL numeric array; `{ takes: "uuid" }` takes ids that need
   * name nothing (a 400 only when malformed), `values` an SQL uuid array.
   */
  methods?: Record<string, { takes: string; choices?: string[] }>;
}

/** What a method filter may take besides a model (FilterSpec.methods). */
export const METHOD_TAKES: readonly string[] = ["boolean", "string", "number", "uuid"];

export type FilterLookup =
  | "net_equals" | "net_contained" | "net_contained_or_equal" | "net_contains_or_equals"
  | "net_host_contained" | "family" | "mask_length" | "mask_length__gte" | "mask_length__lte" | "address" | "contains";

/** An index over fields of the model, by method (`gin` for JSON and arrays, `gist` for addresses). */
export interface IndexSpec {
  fields: string[];
  using?: "btree" | "gin" | "gist";
}

/**
 * Hand-written SQL, emitted into the next migration after the tables. A changed `up` is
 * emitted again (write `CREATE OR REPLACE`, `DROP … IF EXISTS` first, or other re-runnable
 * SQL); a removed block emits the `down` it had, and without one its removal is refused.
 */
export interface SqlBlock {
  up: string;
  down?: string;
}

export interface ModelSpec {
  kind: "model";
  name: string;
  app: string;
  /** URL segment under the app: `prefixes` gives `/api/ipam/prefixes/`. */
  route: string;
  /** Human name (OPTIONS `name`); derived from the model name when absent. */
  verboseName?: string;
  description?: string;
  /**
   * Template of the `display` string: `{field}` or `{fk.field}` placeholders, optionally
   * transformed: `|last:N` (the last N characters), `|display` (a choice's label, as Django's get_FOO_display; a content type's name, as Django's ContentType shows it),
   * `|ranges` (an integer list as sorted runs, `22, 80-82`, as Nautobot's array_to_string),
   * `|isoformat` (a date-time as Python's isoformat writes it: `2024-05-01T12:00:00.250000+00:00`).
   */
  display: string;
  /**
   * Default ordering, a leading `-` for descending. A path through foreign keys orders by a
   * field of the related row (`device.name`), as Django orders by a foreign key through the
   * related model's own ordering (nulls last ascending, as PostgreSQL puts them).
   */
  ordering: string[];
  features?: Feature[];
  fields: Record<string, FieldSpec>;
  /**
   * Fields of the nested form used inside other objects (`id`, `url`, `display` are always
   * added); `"all"` embeds every field, as APIs that embed whole related records do.
   */
  nested: string[] | "all";
  /** Fields of the brief form (`?brief=1`); defaults to `nested`. */
  brief?: string[];
  /**
   * The field a foreign-key filter accepts besides the id (`slug` by default when present): a
   * string field, or an integer one compared as its text (a VLAN's `vid`).
   */
  naturalKey?: string;
  /**
   * The field naming the object a change of this model also belongs to, recorded as the
   * change's related object (Nautobot's `related_object`: a component's device, a template's
   * device type): a foreign key or a generic reference.
   */
  changeLogRelated?: string;
  filters?: FilterSpec;
  /** Groups of fields that must be unique together (a group of one: a one-to-one link). */
  uniqueTogether?: Array<string[] | UniqueGroup>;
  /** Extra indexes a query needs (the default ordering and foreign keys get theirs already). */
  indexes?: IndexSpec[];
  /** Hand-written SQL the model needs (functions, triggers, views), by name: see SqlBlock. */
  sql?: Record<string, SqlBlock>;
  /** Operations the API offers; all by default. */
  operations?: Array<"list" | "retrieve" | "create" | "update" | "delete">;
  /**
   * Read-only views of one object beside its detail (`GET …/<id>/<name>/`: an interface's
   * `trace`), each answered by the hook module's `actions.<name>`; `response` is the JSON
   * schema of the answer, for the OpenAPI documents.
   */
  actions?: Record<string, ActionSpec>;
  /**
   * Tree models: `parentAsId` shows the `parent` as its bare id, as a PrimaryKeyRelatedField
   * shows it (inventory items); `depthName` names the depth field (`tree_depth` for locations);
   * `depthOnlyListed` makes the depth a property of the listed objects alone, null where the
   * object is embedded in another (Nautobot's `tree_depth` is a django-tree-queries annotation
   * of the queried rows, absent from related objects); `relatedName` names the parent's list of
   * its children (`children` when absent).
   */
  tree?: { parentAsId?: boolean; depthName?: string; depthOnlyListed?: boolean; relatedName?: string };
  /**
   * Fields GraphQL shows beyond the model's own: Nautobot's model fields its REST serializers
   * leave out (an IP address's `host`, `prefix_length`), each an SQL expression over this row's
   * fields, named in braces (`"host({address})"`), of a GraphQL scalar type.
   */
  graphqlFields?: Record<string, { type: "String" | "Int" | "Boolean"; sql: string; nullable?: boolean; description?: string }>;
  /**
   * Primary keys of this model's rows: `serial`, integers the database assigns (Django's
   * AutoField, as Nautobot's `auth.Group`), in an api whose other models have UUIDs. Links to
   * the model are written and filtered by those integers. Such a model cannot carry the
   * features or be the target of generic references that keep ids in UUID columns (tags,
   * customFields, notes). The api's own `idType` when absent.
   */
  idType?: "uuid" | "serial";
  /**
   * Rows the table starts with, known by the unique field `key`: each is inserted (unless a row
   * with its key is there) by the migration that creates the table or, for a row added here
   * later, by the next one; never updated or deleted after, so users may change them. Values
   * by field name (scalar fields).
   */
  rows?: { key: string; values: Array<Record<string, string | number | boolean>> };
  /**
   * Rows that are a SQL query over other models' tables rather than a table of their own
   * (Nautobot's interface connections): its columns are `id` and the fields' columns; the
   * migration makes it a view. Read only: `operations` may name only list and retrieve.
   */
  view?: string;
  /** Objects show no `id`, `url` or `display` (DRF serializers that report other rows). */
  bare?: boolean;
  /**
   * More list routes of this model under its app (Nautobot's `console-connections`): each
   * lists the rows whose `present` field is set, with only the filters named.
   */
  listings?: Record<string, { present: string; filters: string[] }>;
  /** How a WordPress-style profile presents the model (post type or taxonomy). */
  wordpress?: WpModelOptions;
  /**
   * The model's hook module, for rules no field or option can say: `"ipam/prefix"` is
   * `hooks/<api>/ipam/prefix.ts`, exporting any of the names of ModelHooks (runtime/hooks.ts).
   * Never a module of `hooks/<api>/lib/`, where the helpers hook modules share live.
   */
  hooks?: string;
}

export interface ActionSpec {
  description: string;
  /** The JSON schema of the answer (of one item, when `paginated`). */
  response: Record<string, unknown>;
  /** The answer is a list, paged (`limit`, `offset`) and wrapped as the profile wraps lists. */
  paginated?: boolean;
  /** Served at `<app>/<name>/`, of no one object (Nautobot's `connected-device`), rather than beside a detail. */
  onApp?: boolean;
  /**
   * A POST to the action also creates objects of `model` (Nautobot's `available-ips`): the hook
   * module's `allocate.<name>` turns the body (one object or a list, each following `request`)
   * into the objects' bodies, inside the transaction that creates them as a POST to that model's
   * list would; the answer is 201 with them in full, or 204 when the hook finds no room.
   */
  creates?: { model: string; request: Record<string, unknown> };
  /** Query parameters it takes (documented; the hook checks them). */
  parameters?: Record<string, { description: string; required?: boolean }>;
  /**
   * `POST`: the action takes a JSON body (documented by `request`), given to the hook as
   * `event.body`, and is answered by the hook as a GET one is; other methods are a 405.
   */
  method?: "GET" | "POST";
  /** A POST's body, as a JSON schema (for the OpenAPI documents; the hook checks it). */
  request?: Record<string, unknown>;
  /**
   * A POST may also send multipart/form-data of this schema (DRF's MultiPartParser): the hook
   * is given its fields and files as `event.form`, and no `event.body`.
   */
  multipart?: Record<string, unknown>;
  /**
   * The object-permission action the requester must hold on the model (`run`), instead of the
   * method's (`view` for a GET, `add` for a POST); an action of one object finds it only among
   * the objects that action's constraints allow.
   */
  permission?: string;
  /** The status of a successful answer (default 200). */
  status?: number;
  /**
   * Served at this path below the model's route, of no one object: literal segments and
   * `{name}` placeholders, each taking one segment, given to the hook as `event.path.name`
   * (Nautobot's class-path job routes, `{source}/{module}/{class}`). Three segments or more,
   * so that no detail or action of an object is taken for it.
   */
  path?: string;
  /**
   * Answers a GET of the model's list route in these API versions (bounds included), in place
   * of the paginated list: Nautobot's versioned list views, as the jobs list that API 1.2
   * shows as job classes and 1.3 as job records.
   */
  servesList?: { since?: string; until?: string };
}

/**
 * WordPress-style presentation, read by the `wordpress` runtime profile. The descriptor type
 * is the one definition (documented there): the spec writes it as is.
 */
export type WpModelOptions = WpModelDescriptor;

/** One model, one file: `export default model("Prefix", {...})`. */
export function model(name: string, spec: Omit<ModelSpec, "kind" | "name">): ModelSpec {
  return { kind: "model", name, ...spec };
}

/**
 * An app (Nautobot's plugin): a folder `apps/<name>/` holding this declaration as `app.ts`, its
 * models under `spec/`, their hook modules under `hooks/` and its jobs under `jobs/`. Its models
 * join the API it names, served below `<basePath>plugins/<baseUrl>/` while the app is enabled
 * (`PLUGINS`); they keep the Django app label `label` in their tables and content types.
 */
export interface AppSpec {
  kind: "app";
  /** The API the app extends (`inventory`). */
  api: string;
  /** The Django app label (`nautobot_bgp_models`): every model of the app has it as its `app`. */
  label: string;
  /** Where its routes hang below `plugins/` (Nautobot's `base_url`), and the name `PLUGINS` enables it by. */
  baseUrl: string;
  /** As Nautobot's PluginConfig: the name shown, the release, who wrote it and what it is. */
  verboseName: string;
  version: string;
  author: string;
  authorEmail?: string;
  description: string;
  /**
   * Migration files of the API's own stream (`0040_create_….sql`) that made this app's tables
   * before the app had a migration stream of its own. They are no longer emitted; a database
   * that applied them counts the app's first migration as applied, as Django's `replaces`.
   */
  replaces?: string[];
}

export function app(spec: Omit<AppSpec, "kind">): AppSpec {
  return { kind: "app", ...spec };
}

export type Profile = "drf" | "wordpress";

export interface ApiSpec {
  kind: "api";
  /** Short name, also the folder under spec/ and generated/. */
  name: string;
  title: string;
  description?: string;
  profile: Profile;
  /** Where the API is mounted: `/api/` for the inventory. */
  basePath: string;
  /** The applications, in the order the API root lists them. */
  apps: string[];
  /** Extra entries on the API root that are not apps (`status`). */
  rootLinks?: string[];
  versions?: { default: string; supported: string[] };
  /** The profile's settings (DrfSettings or WordpressSettings in runtime/descriptor.ts), checked at generate time. */
  settings?: Partial<DrfSettings> | Partial<WordpressSettings>;
  /**
   * Models that hold identities: users (`username`, `password`, `is_active`, …) and their
   * tokens; `settings` names the users' JSON field of their own preferences, which each user
   * reads and merges into at `<users app>/config/` (Nautobot's UserConfigViewSet).
   */
  auth?: { users: string; tokens?: string; settings?: string };
  /** The model the `tags` feature links to (needs `name`, `slug`). */
  tagModel?: string;
  /**
   * The models defining the `customFields` feature's fields at run time: `definitions` with
   * Nautobot CustomField's fields (`name`, `label`, `type`, `required`, `filter_logic`, `default`,
   * `weight`, `validation_*`, and `content_types`, a contentTypes field of the feature), and
   * `choices` with `field` (a foreign key to the definitions), `value` and `weight`.
   * `slugKeysSince`: the first API version whose objects show and take their custom fields
   * keyed by the definitions' `slug` (Nautobot: 1.4); before it, and in the data, by `name`.
   */
  customFields?: { definitions: string; choices: string; slugKeysSince?: string };
  /**
   * The definitions of computed fields (`slug`, `content_type`, `template`, `fallback_value`,
   * `weight`): every model with custom fields shows them, rendered, as opt-in `computed_fields`.
   */
  computedFieldModel?: string;
  /**
   * The notes of the `notes` feature: `assigned_object_type`, `assigned_object_id` (a generic
   * reference to the object) and `note`.
   */
  noteModel?: string;
  /**
   * Relationships defined at run time between models of the `customFields` feature (Nautobot's
   * RelationshipModel): the definitions' model (`name`, `slug`, `type`, `source_type`,
   * `destination_type`, `source_label`, `destination_label`, `source_filter`,
   * `destination_filter`, `required_on`) and the associations' model (`relationship`,
   * `source_type`, `source_id`, `destination_type`, `destination_id`). Each model of the feature
   * gets a `relationships` field.
   */
  relationships?: { definitions: string; associations: string };
  /**
   * The model listing the API's models as content types (`extras.ContentType`): read only (list
   * and retrieve), with string fields `app_label`, `model` and `app_labeled_name` (what its
   * display shows: `DCIM | device type`). The migrations keep one row per model of the API (not
   * views, not itself), each with an integer id the generator gives once and never reuses, so
   * ids are the same on every database. contentTypes fields need it.
   */
  contentTypes?: string;
  /**
   * The model whose rows are the statuses of `status` fields (Nautobot's extras.Status): it has
   * `name` and `slug` fields and a contentTypes field of the `statuses` scope.
   */
  statusModel?: string;
  /** The apps' human names in content types (`{ dcim: "DCIM" }`); the label capitalised otherwise (`Extras`). */
  appNames?: Record<string, string>;
  /** Primary keys: random UUIDs (default) or database-assigned integers. */
  idType?: "uuid" | "serial";
  /**
   * The model recording every create, update and delete of a `changeLogged` model (Nautobot's
   * ObjectChange), read only over the API and written by the server: fields `time`, `user` (a
   * foreign key to the auth users model), `user_name`, `request_id`, `action` (a choice of
   * `create`, `update`, `delete`), `changed_object_type` (a contentType field) with
   * `changed_object_id` and `changed_object` (their generic reference), `related_object_type`,
   * `related_object_id`, `object_repr`, `object_data`, `object_data_v2`, `change_context` and
   * `change_context_detail`.
   */
  changeLog?: string;
  /**
   * The webhooks called after changes commit (Nautobot's Webhook): fields `content_types` (a
   * contentTypes field), `name`, `type_create`, `type_update`, `type_delete`, `payload_url`,
   * `enabled`, `http_method`, `http_content_type`, `additional_headers`, `body_template`,
   * `secret`, `ssl_verification`, `ca_file_path`.
   */
  webhooks?: string;
  /**
   * The export templates `?export=<name>` renders on any list (Nautobot's ExportTemplate):
   * fields `content_type` (a contentType field), `name`, `template_code`, `mime_type`,
   * `file_extension` (runtime/features/export-templates/).
   */
  exportTemplates?: string;
  /**
   * Object permissions (Nautobot's ObjectPermission and Django's auth groups): the permissions'
   * model has `name`, `enabled`, `object_types` (a contentTypes field), `groups` and `users`
   * (many-to-many links to `groups` and to the auth users model), `actions` and `constraints`
   * (JSON); the groups' model has `name`; the auth users model has `groups`, linking to it.
   */
  permissions?: { objectPermissions: string; groups: string };
  /**
   * Jobs (runtime/features/jobs/): the records of the jobs found in the jobs folder (fields as Nautobot's
   * Job: `source`, `module_name`, `job_class_name`, `grouping`, `name`, `slug`, `description`,
   * `installed`, `enabled`, the overridable fields with their `<field>_override` flags, and the
   * JSON `source_values` and `variables` the sync keeps), their results (as Nautobot's JobResult:
   * `created`, `completed`, `name`, `job_model`, `obj_type`, `status`, `user`, `data`, `job_id`,
   * `job_kwargs`) and their log entries (as JobLogEntry: `job_result`, `log_level`, `grouping`,
   * `message`, `created`, `log_object`, `absolute_url`); optionally their schedules (as
   * ScheduledJob: `name`, `task`, `job_model`, `job_class`, `interval`, `kwargs`, `queue`,
   * `one_off`, `start_time`, `enabled`, `last_run_at`, `total_run_count`, `user`,
   * `approved_by_user`, `approval_required`, `approved_at`, `crontab`, and `next_run_at`, when
   * the scheduler fires it next), which the results' `schedule` links to. `hooks`: the job hooks
   * run on changes (as Nautobot's JobHook: `content_types`, a contentTypes field, `job`,
   * `enabled`, `type_create`, `type_update`, `type_delete`).
   */
  jobs?: { jobs: string; results: string; logs: string; schedules?: string; hooks?: string };
  /** A model holding per-user application passwords (`user`, `name`, `password`, `last_used` fields). */
  appPasswords?: string;
  /** Hand-written SQL the API needs beyond any one model (see SqlBlock). */
  sql?: Record<string, SqlBlock>;
  /**
   * Data the next migration may destroy, acknowledged: `"app.Model"` (drop its table) or
   * `"app.Model.field"` (drop or narrow its column). Without it such a step is refused.
   */
  discard?: string[];
}

/** The API-level settings file: `export default api({...})` in `spec/<api>/api.ts`. */
export function api(spec: Omit<ApiSpec, "kind">): ApiSpec {
  return { kind: "api", ...spec };
}
