// Refuses keys a spec's objects do not have: a misspelt option (`maxLenght: 21`) would
// otherwise be dropped in silence and the generated schema would not be what was meant.
// Each list is checked against its DSL type at compile time, so a new option cannot be
// forgotten here.
import type {
  ApiSpec, ChoiceField, CommonFieldOptions, ComputedField, ContentTypeField, ContentTypesField, CountField, GenericField, FieldSpec, FilterSpec, FirstSetField, FkField, IpFamilyField, ListField, M2mField, ModelSpec,
  ReverseField, ScalarField, StatusField, ImageField,
} from "../dsl/index.js";

/** All keys of T, each listed once: a missing or extra one is a type error. */
function keysOf<T>() {
  return <const K extends ReadonlyArray<keyof T>>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)): K => keys;
}

const API = keysOf<ApiSpec>()([
  "kind", "name", "title", "description", "profile", "basePath", "apps", "rootLinks", "versions", "settings", "auth", "tagModel", "customFields", "computedFieldModel", "noteModel", "relationships",
  "idType", "appPasswords", "discard", "sql", "contentTypes", "statusModel", "appNames", "changeLog", "webhooks", "exportTemplates", "permissions", "jobs",
]);
const MODEL = keysOf<ModelSpec>()([
  "kind", "name", "app", "route", "verboseName", "description", "display", "ordering", "features", "fields", "nested", "brief",
  "naturalKey", "changeLogRelated", "filters", "uniqueTogether", "indexes", "sql", "operations", "wordpress", "hooks", "actions", "listings", "view", "bare", "tree", "graphqlFields", "rows", "idType",
]);
const FILTERS = keysOf<FilterSpec>()(["q", "qAddress", "extra", "exclude", "via", "related", "aliases", "present", "membership", "methods"]);
const COMMON = keysOf<CommonFieldOptions>()([
  "description", "label", "required", "nullable", "unique", "uniqueCheckedBy", "verboseName", "uniqueMessage", "default", "readOnly", "writeOnly", "nestedOnly",
  "since", "until", "requiredSince", "optIn", "column", "renamedFrom", "backfill",
]);
const FIELDS: { [K in FieldSpec["kind"]]: ReadonlyArray<string> } = {
  scalar: keysOf<ScalarField>()([
    ...COMMON, "kind", "type", "maxLength", "minLength", "blank", "pattern", "slugFrom", "slugUnderscores", "randomHex", "format", "autoNow", "min", "max",
    "maxDigits", "decimalPlaces", "schema", "searchIndexed",
  ]),
  choice: keysOf<ChoiceField>()([...COMMON, "kind", "choices", "blank", "plain", "plainWhenNested"]),
  list: keysOf<ListField>()([...COMMON, "kind", "of"]),
  ipFamily: keysOf<IpFamilyField>()([...COMMON, "kind", "from"]),
  count: keysOf<CountField>()([...COMMON, "kind", "of", "descendants", "stored"]),
  reverse: keysOf<ReverseField>()([...COMMON, "kind", "of", "singleUntil", "through"]),
  firstSet: keysOf<FirstSetField>()([...COMMON, "kind", "fields"]),
  fk: keysOf<FkField>()([...COMMON, "kind", "target", "onDelete", "fromRequestUser", "idWhenNested", "asId", "shape", "relatedName", "oneToOne"]),
  m2m: keysOf<M2mField>()([...COMMON, "kind", "target", "bySlug", "keyWhenNested", "relatedName"]),
  computed: keysOf<ComputedField>()([...COMMON, "kind", "schema", "excludable"]),
  contentType: keysOf<ContentTypeField>()([...COMMON, "kind", "models", "feature"]),
  contentTypes: keysOf<ContentTypesField>()([...COMMON, "kind", "feature", "models"]),
  generic: keysOf<GenericField>()([...COMMON, "kind", "type", "id", "onDelete", "relatedName"]),
  imageFile: keysOf<ImageField>()([...COMMON, "kind", "uploadTo", "height", "width", "maxLength"]),
  status: keysOf<StatusField>()([...COMMON, "kind", "defaults"]),
};

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

function unknownKeys(value: unknown, known: ReadonlyArray<string>, what: string, err: (message: string) => void): void {
  if (typeof value !== "object" || value === null) return;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const close = known.filter((k) => distance(key, k) <= Math.max(1, Math.floor(k.length / 4))).sort((a, b) => distance(key, a) - distance(key, b));
    err(`unknown ${what} option "${key}"${close.length ? ` (did you mean "${close[0]}"?)` : ""}`);
  }
}

export function checkApiKeys(api: ApiSpec, err: (message: string) => void): void {
  unknownKeys(api, API, "api", err);
}

export function checkModelKeys(m: ModelSpec, err: (message: string, field?: string) => void): void {
  unknownKeys(m, MODEL, "model", err);
  unknownKeys(m.filters, FILTERS, "filters", err);
  for (const [name, f] of Object.entries(m.fields ?? {})) {
    const known = FIELDS[f?.kind as FieldSpec["kind"]];
    if (known) unknownKeys(f, known, `${f.kind} field`, (message) => err(message, name));
  }
}
