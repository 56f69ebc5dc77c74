// Validate pass: checks loaded specs and reports every problem at once, each naming the
// spec file, model and field. Gives a list of messages (empty when the spec is sound);
// it builds nothing, so the IR pass may assume a valid spec.
import { METHOD_TAKES, type ApiSpec, type FieldSpec, type ModelSpec } from "../dsl/index.js";
import type { LoadedApi } from "../load/index.js";
import { specKindOf } from "../kinds/index.js";
import { inScope } from "../kinds/content-type.js";
import { COMPUTED_FIELD_COLUMNS, CONTENT_TYPE_FIELDS } from "../ir/names.js";
import { checkHooks } from "./hooks.js";
import { checkApps } from "./apps.js";
import { checkApiKeys, checkModelKeys } from "./keys.js";
import { checkApiOptions, checkFieldOptions, checkModelOptions } from "./options.js";
import { checkSettings } from "./settings.js";
import { checkWordpressOptions } from "./wordpress.js";

export interface Diagnostic {
  file: string;
  model?: string;
  field?: string;
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.model && `model ${d.model}`, d.field && `field ${d.field}`].filter(Boolean).join(", ");
  return `${d.file}: ${where ? where + ": " : ""}${d.message}`;
}

const RESERVED = new Set(["id", "url", "display", "tags", "custom_fields", "created", "last_updated", "_depth"]);
/** What the WordPress-style profile adds to every record itself. */
const WP_RESERVED = new Set(["id", "url", "rest_url", "global_id", "global_id_lineage", "urls", "count", "taxonomy"]);
const NETWORK_LOOKUPS = new Set([
  "net_equals", "net_contained", "net_contained_or_equal", "net_contains_or_equals",
  "net_host_contained", "family", "mask_length", "mask_length__gte", "mask_length__lte", "address",
]);
const STRINGISH = new Set(["string", "text"]);

export function validate(loaded: LoadedApi): Diagnostic[] {
  const out: Diagnostic[] = [];
  const apiFile = loaded.api.file;
  const err = (file: string, message: string, model?: string, field?: string) =>
    out.push({ file, model, field, message });

  if (!loaded.api.value || loaded.api.value.kind !== "api") {
    err(apiFile, "default export must be api({...})");
    return out;
  }
  // The checks below read options as their types say: one of another type is reported here and not read.
  const api = checkApiOptions(loaded.api.value, (message) => err(apiFile, message));
  if (!/^[a-z][a-z0-9-]*$/.test(api.name ?? "")) err(apiFile, `api name "${api.name}" must be lower-case letters, digits and dashes`);
  if (!/^\/.*\/$/.test(api.basePath ?? "")) err(apiFile, `basePath "${api.basePath}" must start and end with "/"`);
  if (!Array.isArray(api.apps) || api.apps.length === 0) err(apiFile, "apps must list at least one application");
  else if (new Set(api.apps).size !== api.apps.length) err(apiFile, "apps lists an application twice");
  checkApiKeys(api, (message) => err(apiFile, message));
  checkSqlBlocks(api.sql, (message) => err(apiFile, message));
  for (const entry of api.discard ?? []) {
    if (typeof entry !== "string" || !/^[a-z][a-z0-9_]*\.[A-Z][A-Za-z0-9]*(\.[a-z_][a-z0-9_]*)?$/.test(entry)) err(apiFile, `discard entries are "app.Model" or "app.Model.field", not ${JSON.stringify(entry)}`);
  }
  checkSettings(api.profile, api.settings, (message) => err(apiFile, message));
  const versions = api.versions?.supported ?? [];
  if (api.versions && !versions.includes(api.versions.default)) {
    err(apiFile, `default version "${api.versions.default}" is not among supported versions ${versions.join(", ")}`);
  }

  const models = new Map<string, { spec: ModelSpec; file: string; app?: string }>();
  const routes = new Map<string, string>();
  const apps = checkApps(loaded, (file, message) => err(file, message));
  for (const { file, value, app } of loaded.models) {
    if (!value || value.kind !== "model") {
      err(file, "default export must be model(name, {...})");
      continue;
    }
    const m = checkModelOptions(value, (message) => err(file, message, value.name));
    if (!/^[A-Z][A-Za-z0-9]*$/.test(m.name)) err(file, `model name must be PascalCase`, m.name);
    const owner = app === undefined ? undefined : apps.get(app);
    if (owner) {
      if (m.app !== owner.spec.label) err(file, `app "${m.app}" must be the label of the app it belongs to, "${owner.spec.label}" (${owner.file})`, m.name);
    } else if (!api.apps?.includes(m.app)) err(file, `app "${m.app}" is not listed in ${apiFile}`, m.name);
    const ref = `${m.app}.${m.name}`;
    if (models.has(ref)) err(file, `model ${ref} is also defined in ${models.get(ref)!.file}`, m.name);
    models.set(ref, { spec: m, file, app });
    if (!/^[a-z0-9][a-z0-9-]*$/.test(m.route ?? "")) err(file, `route "${m.route}" must be lower-case letters, digits and dashes`, m.name);
    const routeKey = `${m.app}/${m.route}`;
    if (routes.has(routeKey)) err(file, `route ${routeKey} is also used by ${routes.get(routeKey)}`, m.name);
    routes.set(routeKey, ref);
  }

  const resolve = (target: string) => models.get(target);
  const appOfFile = new Map([...models.values()].map((x) => [x.file, x.app]));
  const checkRef = (file: string, model: string, fieldName: string, target: string) => {
    const found = resolve(target);
    if (!found) {
      err(file, `unknown model "${target}" (known: ${[...models.keys()].sort().join(", ")})`, model, fieldName);
      return false;
    }
    // The core and every app are served whichever apps are enabled: only the app itself may lean on its models.
    const from = appOfFile.get(file);
    if (found.app !== undefined && found.app !== from) {
      err(file, `"${target}" is a model of app ${found.app}, which only that app's own models may refer to`, model, fieldName);
      return false;
    }
    return true;
  };
  if (api.auth) {
    const users = resolve(api.auth.users);
    if (!users) err(apiFile, `auth.users names unknown model "${api.auth.users}"`);
    else {
      for (const f of ["username", "password", "is_active", "is_superuser"]) {
        if (!users.spec.fields[f]) err(users.file, `auth.users model needs a field "${f}"`, users.spec.name);
      }
      const settings = api.auth.settings;
      if (settings !== undefined && (users.spec.fields[settings] as { kind?: string; type?: string } | undefined)?.type !== "json") {
        err(users.file, `auth.settings names no JSON field of the users model`, users.spec.name, settings);
      }
    }
    if (api.auth.tokens) {
      const tokens = resolve(api.auth.tokens);
      if (!tokens) err(apiFile, `auth.tokens names unknown model "${api.auth.tokens}"`);
      else for (const f of ["user", "key", "expires", "write_enabled"]) {
        if (!tokens.spec.fields[f]) err(tokens.file, `auth.tokens model needs a field "${f}"`, tokens.spec.name);
      }
    }
  }
  if (api.tagModel && !resolve(api.tagModel)) err(apiFile, `tagModel names unknown model "${api.tagModel}"`);
  if (api.customFields) checkCustomFieldModels(api.customFields, resolve, versions, (message) => err(apiFile, message));
  if (api.noteModel && !resolve(api.noteModel)) err(apiFile, `noteModel names unknown model "${api.noteModel}"`);
  if (api.computedFieldModel) {
    const defs = resolve(api.computedFieldModel);
    if (!defs) err(apiFile, `computedFieldModel names unknown model "${api.computedFieldModel}"`);
    else for (const f of Object.values(COMPUTED_FIELD_COLUMNS)) if (!defs.spec.fields[f]) err(defs.file, `computedFieldModel needs a field "${f}"`, defs.spec.name);
  }
  if (api.contentTypes !== undefined) checkRegistry(api.contentTypes, resolve, (file, message, model, field) => err(file ?? apiFile, message, model, field));
  for (const app of Object.keys(api.appNames ?? {})) if (!api.apps?.includes(app)) err(apiFile, `appNames names "${app}", which is not among apps`);
  checkRoles(api, resolve, (file, message, model, field) => err(file ?? apiFile, message, model, field));

  for (const { spec: m, file } of models.values()) {
    const features = m.features ?? [];
    if (features.includes("tags") && !api.tagModel) err(file, `feature "tags" needs tagModel in ${apiFile}`, m.name);
    if (features.includes("notes") && !api.noteModel) err(file, `feature "notes" needs noteModel in ${apiFile}`, m.name);
    const fields = m.fields ?? {};
    const implicit = new Set(["id", "url", "display"]);
    if (features.includes("tree")) { implicit.add("parent"); implicit.add(m.tree?.depthName ?? "_depth"); }
    if (features.includes("changeLogged")) { implicit.add("created"); implicit.add("last_updated"); }
    if (features.includes("tags")) implicit.add("tags");
    if (features.includes("customFields")) implicit.add("custom_fields");
    if (features.includes("notes")) implicit.add("notes_url");
    if (features.includes("customFields") && api.computedFieldModel) implicit.add("computed_fields");
    const has = (name: string) => name in fields || implicit.has(name);
    // Whether `of` ("app.Model.field") is a foreign key of another model pointing at this one.
    const pointsHere = (of: unknown) => {
      const [app, model, fk, ...rest] = String(of ?? "").split(".");
      const link = resolve(`${app}.${model}`)?.spec.fields[fk];
      return !rest.length && link?.kind === "fk" && link.target === `${m.app}.${m.name}`;
    };
    // A field that makes no filter of its own (JSON, hidden, or one the spec excludes) leaves its name free.
    const excluded = new Set<unknown>(Array.isArray(m.filters?.exclude) ? m.filters.exclude : []);
    const filterless = (name: string) => excluded.has(name) || !!fields[name]?.writeOnly || (fields[name]?.kind === "scalar" && (fields[name] as { type: string }).type === "json");

    for (const [name, f] of Object.entries(fields)) {
      if (!/^[a-z][a-z0-9_]*$/.test(name)) err(file, "field names must be snake_case", m.name, name);
      const reserved = api.profile === "wordpress" ? WP_RESERVED : RESERVED;
      // A model without the feature may use its name for a field of its own (a config context's tags).
      const ownName = (name === "created" && !features.includes("changeLogged")) || (name === "tags" && !features.includes("tags"));
      if (reserved.has(name) && !ownName) {
        err(file, `"${name}" is provided by the API itself and cannot be declared`, m.name, name);
      }
      if (features.includes("tree") && name === "parent") err(file, `"parent" is added by the "tree" feature`, m.name, name);
      // A field's kind checks read its options as their types say: one of another type is reported here instead.
      if (checkFieldOptions(f, (message) => err(file, message, m.name, name))) checkField(file, m, name, f, { api, err, checkRef, resolve, versions, fields, users: api.auth?.users });
    }
    checkModelKeys(m, (message, field) => err(file, message, m.name, field));
    checkIdType(api, m, (message) => err(file, message, m.name));
    checkHooks(m, loaded.hooks, (message, field) => err(file, message, m.name, field), appOfFile.get(file));
    checkWordpressOptions(m, api.profile, has, (n) => (n in fields ? fields[n].kind : undefined), (message) => err(file, message, m.name));
    if (features.includes("ownedByRequester") && !Object.values(fields).some((f) => f.kind === "fk" && f.fromRequestUser)) {
      err(file, `feature "ownedByRequester" needs a foreign key with fromRequestUser`, m.name);
    }

    const placeholders = [...(m.display ?? "").matchAll(/\{([^}|]+)(\|[^}]*)?\}/g)];
    if (/\[[^\]]*\[|\][^\[]*\]/.test(m.display ?? "") || (m.display ?? "").split("[").length !== (m.display ?? "").split("]").length) {
      err(file, "display template sections [ … ] must be balanced and not nested", m.name);
    }
    if (!m.display) err(file, "display template is required", m.name);
    for (const [, path, transform] of placeholders) {
      const [head, ...rest] = path.split(".");
      let leafKind: string | undefined;
      let leafSpec: FieldSpec | undefined;
      if (!has(head)) err(file, `display template names unknown field "${head}"`, m.name);
      else if (rest.length) {
        // Each step but the last is a foreign key; the last a field of the model it reaches.
        let spec: ModelSpec | undefined = m;
        for (const step of [head, ...rest.slice(0, -1)]) {
          const f: FieldSpec | undefined = spec?.fields[step];
          // A tree's implicit parent leads to the same model.
          const treeParent: boolean = step === "parent" && !f && !!spec?.features?.includes("tree");
          spec = treeParent ? spec : f?.kind === "fk" ? resolve(f.target)?.spec : undefined;
        }
        const leaf = rest[rest.length - 1];
        if (!spec || !(leaf in spec.fields || leaf === "id")) err(file, `display template path "${path}" does not lead to a field`, m.name);
        leafSpec = spec?.fields[leaf];
        leafKind = leafSpec?.kind;
      } else {
        leafSpec = fields[head];
        leafKind = leafSpec?.kind;
      }
      if (transform && !/^\|(last:\d+|display|ranges|isoformat)$/.test(transform)) err(file, `display transform "${transform}" is unknown (known: |last:N, |display, |ranges, |isoformat)`, m.name);
      else if (transform === "|display" && leafKind !== "choice" && leafKind !== "status" && !(leafKind === "contentType" && api.contentTypes)) {
        err(file, `display transform "|display" of "${path}" needs a choice or status field, or a contentType field of an api with a contentTypes registry`, m.name);
      }
      else if (transform === "|ranges" && leafKind !== "list") err(file, `display transform "|ranges" of "${path}" needs a list field`, m.name);
      else if (transform === "|isoformat" && !(leafSpec?.kind === "scalar" && leafSpec.type === "datetime")) err(file, `display transform "|isoformat" of "${path}" needs a datetime field`, m.name);
    }
    for (const o of m.ordering ?? []) {
      const [head, ...rest] = o.replace(/^-/, "").split(".");
      if (!has(head)) err(file, `ordering names unknown field "${o}"`, m.name);
      else if (rest.length) checkOrderingPath(m, o, resolve, (message) => err(file, message, m.name, head));
    }
    for (const list of ["nested", "brief"] as const) {
      const names = m[list] ?? [];
      if (names === "all") continue;
      if (!Array.isArray(names)) err(file, `${list} must be a list of field names${list === "nested" ? ' or "all"' : ""}`, m.name);
      else for (const n of names) if (!has(n)) err(file, `${list} names unknown field "${n}"`, m.name);
    }
    if (m.changeLogRelated !== undefined) {
      const related = fields[m.changeLogRelated] as { kind?: string } | undefined;
      if (!["fk", "treeParent", "generic"].includes(related?.kind ?? "")) {
        err(file, `changeLogRelated must name a foreign key or generic reference of the model`, m.name, m.changeLogRelated);
      }
    }
    if (m.naturalKey && !(m.naturalKey in fields)) err(file, `naturalKey names unknown field "${m.naturalKey}"`, m.name);
    // Foreign-key filters take the natural key as text; a key that is not unique (a device's
    // name) matches every object that has it, as Nautobot's natural-key filters do.
    else if (m.naturalKey && !(fields[m.naturalKey].kind === "scalar" && ["string", "text", "integer"].includes((fields[m.naturalKey] as { type: string }).type))) {
      err(file, `naturalKey field "${m.naturalKey}" must be a string or integer field`, m.name, m.naturalKey);
    }
    if (m.rows) {
      // Rows are known by their key from migration to migration: a unique field each row gives.
      const key = m.rows.key;
      const keyField = fields[key];
      if (!(keyField?.kind === "scalar" && keyField.unique)) err(file, `rows key "${key}" must be a unique scalar field`, m.name);
      const seen = new Set<string>();
      (m.rows.values ?? []).forEach((r, i) => {
        for (const n of Object.keys(r)) if (fields[n]?.kind !== "scalar") err(file, `rows[${i}] names "${n}", which is no scalar field`, m.name);
        if (r[key] === undefined) err(file, `rows[${i}] gives no ${key}`, m.name);
        else if (seen.has(String(r[key]))) err(file, `rows[${i}] repeats ${key} "${String(r[key])}"`, m.name);
        seen.add(String(r[key]));
      });
    }
    for (const q of m.filters?.q ?? []) {
      // "app.Model.fk.field": a field of the rows of another model that point here.
      const [app, model, fk, name, ...rest] = q.split(".");
      const far = name !== undefined && !rest.length && pointsHere(`${app}.${model}.${fk}`);
      const f = far ? resolve(`${app}.${model}`)!.spec.fields[name] : fields[q];
      if (!f) err(file, `filters.q names unknown field "${q}" (a field here, or "app.Model.fk.field" of a model whose fk points here)`, m.name);
      // Another model's rows are searched as text only.
      else if (far && !(f.kind === "scalar" && STRINGISH.has(f.type))) err(file, `filters.q field "${q}" of another model must be a string field`, m.name);
      else if (!(f.kind === "contentTypes" || (f.kind === "scalar" && (STRINGISH.has(f.type) || f.type === "integer")))) {
        err(file, `filters.q field "${q}" is not a string, integer or contentTypes field`, m.name);
      }
    }
    const qAddress = m.filters?.qAddress;
    if (qAddress !== undefined) {
      const f = fields[qAddress];
      if (!(f?.kind === "scalar" && (f.type === "cidr" || f.type === "ip"))) err(file, `filters.qAddress "${qAddress}" must name a cidr or ip field`, m.name);
      if (!m.filters?.q?.length) err(file, "filters.qAddress needs filters.q", m.name);
    }
    for (const [param, x] of Object.entries(m.filters?.extra ?? {})) {
      const f = fields[x.field];
      if (!f) err(file, `filter "${param}" names unknown field "${x.field}"`, m.name);
      else if (x.lookup === "contains") {
        if (f.kind !== "list") err(file, `filter "${param}": lookup "contains" needs a list field`, m.name);
      } else if (!(f.kind === "scalar" && (f.type === "cidr" || f.type === "ip"))) err(file, `filter "${param}": lookup "${x.lookup}" needs a cidr or ip field`, m.name);
      if (!NETWORK_LOOKUPS.has(x.lookup) && x.lookup !== "contains") err(file, `filter "${param}": unknown lookup "${x.lookup}"`, m.name);
      // A field's own filter takes its name; an extra filter of that name would never be reached.
      if (has(param) || param === "q") err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    for (const [param, paths] of Object.entries(m.filters?.via ?? {})) {
      for (const path of [paths].flat()) {
        // Each link is a foreign key (a tree's `parent` included) of the model the one before points to.
        let at: ModelSpec | undefined = m;
        for (const name of String(path).split(".")) {
          const f: FieldSpec | undefined = at?.fields[name] ?? (name === "parent" && at?.features?.includes("tree") ? { kind: "fk" as const, target: `${at.app}.${at.name}` } : undefined);
          at = f?.kind === "fk" ? resolve(f.target)?.spec : undefined;
          if (!at) break;
        }
        if (!at) err(file, `filter "${param}": "${path}" must be a chain of foreign keys: <foreign key>[.<foreign key of the related model>]…`, m.name);
      }
      if (has(param) || param === "q" || param in (m.filters?.extra ?? {})) err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    if (m.view !== undefined && (typeof m.view !== "string" || (m.operations ?? ["create"]).some((op) => op !== "list" && op !== "retrieve"))) {
      err(file, "a view model needs view: a SELECT, and operations naming only list and retrieve", m.name);
    }
    for (const [route, l] of Object.entries(m.listings ?? {})) {
      const f = fields[l?.present];
      if (!f || !["scalar", "choice", "fk", "contentType"].includes(f.kind)) err(file, `listing "${route}": present must name a stored field, not "${l?.present}"`, m.name);
      if (!Array.isArray(l?.filters)) err(file, `listing "${route}": filters must list filter names`, m.name);
    }
    for (const [param, named] of Object.entries(m.filters?.present ?? {})) {
      const names = [named].flat();
      for (const name of names) if (!(name in fields)) err(file, `filter "${param}" names unknown field "${name}"`, m.name);
      if ((has(param) && !(names.length === 1 && filterless(param))) || param === "q") err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    for (const [param, of] of Object.entries(m.filters?.membership ?? {})) {
      if (!pointsHere(of)) err(file, `filter "${param}": "${of}" must be "app.Model.field", a foreign key of another model to ${m.app}.${m.name}`, m.name);
      if (has(param) || param === "q") err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    for (const [name, a] of Object.entries(m.actions ?? {})) {
      const made = a?.creates?.model;
      if (made !== undefined && (typeof made !== "string" || !resolve(made))) err(file, `action "${name}": creates names no model ("app.Model")`, m.name);
      for (const v of [a?.servesList?.since, a?.servesList?.until]) {
        if (v !== undefined && !versions.includes(v)) err(file, `action "${name}": servesList version "${v}" is not a supported API version (supported: ${versions.join(", ")})`, m.name);
      }
      if (a?.servesList && !(m.operations ?? ["list"]).includes("list")) err(file, `action "${name}": servesList answers the list, but the model has no list operation`, m.name);
    }
    const listServers = Object.entries(m.actions ?? {}).filter(([, a]) => a?.servesList);
    if (listServers.length > 1) err(file, `actions ${listServers.map(([n]) => `"${n}"`).join(", ")}: only one action may serve the list`, m.name);
    for (const [param, method] of Object.entries(m.filters?.methods ?? {})) {
      const takes = method?.takes;
      if (typeof takes !== "string" || (!METHOD_TAKES.includes(takes) && !resolve(takes))) {
        err(file, `filter "${param}": takes must be "boolean", "string", "number", "uuid" or a model ("app.Model")`, m.name);
      }
      if (method?.choices !== undefined && (takes !== "string" || !Array.isArray(method.choices))) err(file, `filter "${param}": choices must be a list, for takes "string"`, m.name);
      // A search the spec's `q` fields cannot say (across foreign keys, by content type) is a method `q`.
      if ((has(param) && !filterless(param)) || (param === "q" && m.filters?.q?.length)) err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    for (const [alias, name] of Object.entries(m.filters?.aliases ?? {})) {
      if (!(name in fields)) err(file, `filter alias "${alias}" names unknown field "${name}"`, m.name);
      // A hidden field's filters may keep its own name (Nautobot filters an object change's `object_repr`).
      if ((has(alias) && !(alias === name && filterless(name))) || alias === "q") err(file, `filter alias "${alias}" has the name of a filter the API already makes`, m.name);
    }
    for (const [param, spec] of Object.entries(m.filters?.related ?? {})) {
      const [app, model] = String(spec?.of ?? "").split(".");
      if (!pointsHere(spec?.of)) {
        err(file, `filter "${param}": "${spec?.of}" must be "app.Model.field", a foreign key of another model to ${m.app}.${m.name}`, m.name);
      } else if (spec.key !== undefined && !(spec.key in resolve(`${app}.${model}`)!.spec.fields)) err(file, `filter "${param}": key "${spec.key}" is no field of ${app}.${model}`, m.name);
      if ([param, `${param}__n`, `has_${param}`].some((p) => has(p)) || param === "q") err(file, `filter "${param}" has the name of a filter the API already makes`, m.name);
    }
    for (const ix of m.indexes ?? []) {
      for (const n of ix.fields ?? []) {
        const f = fields[n];
        if (!f || !(f.kind === "scalar" || f.kind === "choice" || f.kind === "list" || f.kind === "fk" || f.kind === "contentType" || f.kind === "status")) err(file, `indexes names "${n}", which is no field stored in a column`, m.name);
      }
    }
    checkSqlBlocks(m.sql, (message) => err(file, message, m.name));
    for (const group of m.uniqueTogether ?? []) {
      const names = Array.isArray(group) ? group : group.fields;
      for (const n of names) if (!has(n)) err(file, `uniqueTogether names unknown field "${n}"`, m.name);
    }
  }
  checkGenericTargets(api, models, (file, message, model, field) => err(file, message, model, field));
  return out;
}

/** Whether a model's rows have integer ids while the api's others have UUIDs. */
const serialIn = (api: ApiSpec, m: ModelSpec) => m.idType === "serial" && api.idType !== "serial";

/** A model's `idType`: a known one, agreeing with a serial api, and no feature keeping the model's ids as UUIDs. */
function checkIdType(api: ApiSpec, m: ModelSpec, err: (message: string) => void): void {
  if (m.idType === undefined) return;
  if (m.idType !== "uuid" && m.idType !== "serial") return;
  if (m.idType === "uuid" && api.idType === "serial") return err(`idType "uuid" in an api whose idType is "serial": its models all have serial ids`);
  if (!serialIn(api, m)) return;
  for (const f of ["tags", "customFields", "notes"] as const) {
    if (m.features?.includes(f)) err(`feature "${f}" keeps the ids of the objects it applies to as UUIDs: a model with idType "serial" cannot have it`);
  }
}

/** Generic references keep ids in UUID fields: none may name a model with serial ids. */
function checkGenericTargets(
  api: ApiSpec, models: Map<string, { spec: ModelSpec; file: string }>,
  err: (file: string, message: string, model: string, field: string) => void,
): void {
  const serial = [...models.values()].filter(({ spec }) => serialIn(api, spec)).map(({ spec }) => spec);
  if (!serial.length) return;
  for (const { spec: m, file } of models.values()) {
    for (const [name, f] of Object.entries(m.fields ?? {})) {
      if (f?.kind !== "generic") continue;
      const type = m.fields[f.type];
      if (type?.kind !== "contentType") continue;
      for (const s of serial) {
        const ref = `${s.app}.${s.name}`;
        const named = type.feature ? inScope(s, type.feature) && ref !== api.contentTypes : !!type.models?.includes(ref);
        if (named) err(file, `generic reference may name ${ref}, whose ids are serial, but its id field "${f.id}" holds UUIDs`, m.name, name);
      }
    }
  }
}

/** The fields each role model of the api (changeLog, webhooks, permissions) must have, by kind, as the runtime reads them. */
/** A job record's fields that the job's source gives unless the record overrides them (Nautobot's JOB_OVERRIDABLE_FIELDS). */
export const JOB_OVERRIDABLE: Record<string, FieldSpec["kind"]> = {
  grouping: "scalar", name: "scalar", description: "scalar", commit_default: "scalar", hidden: "scalar", read_only: "scalar", approval_required: "scalar",
  soft_time_limit: "scalar", time_limit: "scalar", has_sensitive_variables: "scalar", task_queues: "scalar",
};

export const ROLE_FIELDS: Record<"changeLog" | "webhooks" | "exportTemplates" | "objectPermissions" | "groups" | "jobs" | "jobResults" | "jobLogs" | "jobSchedules" | "jobResultSchedules" | "jobHooks", Record<string, FieldSpec["kind"]>> = {
  changeLog: {
    time: "scalar", user: "fk", user_name: "scalar", request_id: "scalar", action: "choice", changed_object_type: "contentType",
    changed_object_id: "scalar", changed_object: "generic", related_object_type: "contentType", related_object_id: "scalar",
    object_repr: "scalar", object_data: "scalar", object_data_v2: "scalar", change_context: "choice", change_context_detail: "scalar",
  },
  webhooks: {
    content_types: "contentTypes", name: "scalar", type_create: "scalar", type_update: "scalar", type_delete: "scalar", payload_url: "scalar",
    enabled: "scalar", http_method: "choice", http_content_type: "scalar", additional_headers: "scalar", body_template: "scalar", secret: "scalar",
    ssl_verification: "scalar", ca_file_path: "scalar",
  },
  exportTemplates: { content_type: "contentType", name: "scalar", template_code: "scalar", mime_type: "scalar", file_extension: "scalar" },
  objectPermissions: { name: "scalar", enabled: "scalar", object_types: "contentTypes", groups: "m2m", users: "m2m", actions: "scalar", constraints: "scalar" },
  groups: { name: "scalar" },
  jobs: {
    source: "scalar", module_name: "scalar", job_class_name: "scalar", slug: "scalar", installed: "scalar", enabled: "scalar",
    source_values: "scalar", variables: "scalar", is_job_hook_receiver: "scalar", is_job_button_receiver: "scalar", ...JOB_OVERRIDABLE,
    ...Object.fromEntries(Object.keys(JOB_OVERRIDABLE).map((f) => [`${f}_override`, "scalar"])),
  },
  jobResults: {
    created: "scalar", completed: "scalar", name: "scalar", job_model: "fk", obj_type: "contentType", status: "choice", user: "fk",
    data: "scalar", job_id: "scalar", job_kwargs: "scalar",
  },
  jobLogs: { job_result: "fk", log_level: "choice", grouping: "scalar", message: "scalar", created: "scalar", log_object: "scalar", absolute_url: "scalar" },
  jobHooks: { content_types: "contentTypes", job: "fk", enabled: "scalar", type_create: "scalar", type_update: "scalar", type_delete: "scalar" },
  jobSchedules: {
    name: "scalar", task: "scalar", job_model: "fk", job_class: "scalar", interval: "choice", kwargs: "scalar", queue: "scalar", one_off: "scalar",
    start_time: "scalar", enabled: "scalar", last_run_at: "scalar", total_run_count: "scalar", user: "fk", approved_by_user: "fk",
    approval_required: "scalar", approved_at: "scalar", crontab: "scalar", next_run_at: "scalar", description: "scalar", date_changed: "scalar",
  },
  // What the results have besides, when the jobs have schedules: the schedule that fired each.
  jobResultSchedules: { schedule: "fk" },
};

/** The job results' statuses and the log levels, as runtime/features/jobs writes them (Nautobot's JobResultStatusChoices and LogLevelChoices). */
const JOB_STATUSES = ["pending", "running", "completed", "errored", "failed"];
const LOG_LEVELS = ["default", "success", "info", "warning", "failure"];

/** The actions a change record's `action` names, as the runtime writes them. */
const CHANGE_ACTIONS = ["create", "update", "delete"];

/** The api's role models (changeLog, webhooks, permissions): each exists, with the fields the runtime reads, linked as it expects. */
function checkRoles(
  api: ApiSpec,
  resolve: (target: string) => { spec: ModelSpec; file: string } | undefined,
  err: (file: string | undefined, message: string, model?: string, field?: string) => void,
): void {
  const role = (what: string, ref: unknown, fields: Record<string, FieldSpec["kind"]>) => {
    const found = typeof ref === "string" ? resolve(ref) : undefined;
    if (!found) {
      err(undefined, `${what} names unknown model ${JSON.stringify(ref)}`);
      return undefined;
    }
    const { spec, file } = found;
    for (const [name, kind] of Object.entries(fields)) {
      const f = spec.fields?.[name];
      if (!f) err(file, `the ${what} model needs a field "${name}"`, spec.name, name);
      else if (f.kind !== kind) err(file, `the ${what} model's field "${name}" must be a ${kind} field, not ${f.kind}`, spec.name, name);
    }
    return found;
  };
  const link = (owner: { spec: ModelSpec; file: string } | undefined, name: string, target: string | undefined, what: string) => {
    const f = owner?.spec.fields?.[name];
    if (owner && target && f && (f.kind === "fk" || f.kind === "m2m") && f.target !== target) {
      err(owner.file, `field "${name}" must link to ${what} ${target}, not ${f.target}`, owner.spec.name, name);
    }
  };
  const users = api.auth?.users;
  if (api.changeLog !== undefined) {
    const log = role("changeLog", api.changeLog, ROLE_FIELDS.changeLog);
    if (log && !users) err(undefined, "changeLog needs auth.users: its user field is a user");
    link(log, "user", users, "the auth.users model");
    const action = log?.spec.fields.action;
    const missing = action?.kind === "choice" ? CHANGE_ACTIONS.filter((v) => !action.choices.values.some(([x]) => x === v)) : [];
    if (missing.length) err(log!.file, `the changeLog model's action choices need ${missing.map((v) => `"${v}"`).join(", ")}`, log!.spec.name, "action");
  }
  if (api.webhooks !== undefined) role("webhooks", api.webhooks, ROLE_FIELDS.webhooks);
  if (api.exportTemplates !== undefined) role("exportTemplates", api.exportTemplates, ROLE_FIELDS.exportTemplates);
  if (api.jobs !== undefined) {
    role("jobs.jobs", api.jobs?.jobs, ROLE_FIELDS.jobs);
    const results = role("jobs.results", api.jobs?.results, ROLE_FIELDS.jobResults);
    const logs = role("jobs.logs", api.jobs?.logs, ROLE_FIELDS.jobLogs);
    if (!users) err(undefined, "jobs needs auth.users: a job runs as the user who ran it");
    link(results, "job_model", api.jobs?.jobs, "jobs.jobs");
    link(results, "user", users, "the auth.users model");
    link(logs, "job_result", api.jobs?.results, "jobs.results");
    if (api.jobs?.hooks !== undefined) link(role("jobs.hooks", api.jobs.hooks, ROLE_FIELDS.jobHooks), "job", api.jobs.jobs, "jobs.jobs");
    if (api.jobs?.schedules !== undefined) {
      const schedules = role("jobs.schedules", api.jobs.schedules, ROLE_FIELDS.jobSchedules);
      link(schedules, "job_model", api.jobs.jobs, "jobs.jobs");
      link(schedules, "user", users, "the auth.users model");
      link(schedules, "approved_by_user", users, "the auth.users model");
      link(role("jobs.results", api.jobs.results, ROLE_FIELDS.jobResultSchedules), "schedule", api.jobs.schedules, "jobs.schedules");
    }
    const choiceValues = (owner: typeof results, name: string, values: string[]) => {
      const f = owner?.spec.fields[name];
      const missing = f?.kind === "choice" ? values.filter((v) => !f.choices.values.some(([x]) => x === v)) : [];
      if (missing.length) err(owner!.file, `the ${name} choices need ${missing.map((v) => `"${v}"`).join(", ")}`, owner!.spec.name, name);
    };
    choiceValues(results, "status", JOB_STATUSES);
    choiceValues(logs, "log_level", LOG_LEVELS);
  }
  if (api.permissions !== undefined) {
    const perms = role("permissions.objectPermissions", api.permissions?.objectPermissions, ROLE_FIELDS.objectPermissions);
    const groups = role("permissions.groups", api.permissions?.groups, ROLE_FIELDS.groups);
    if (!users) err(undefined, "permissions needs auth.users: permissions are granted to users");
    link(perms, "users", users, "the auth.users model");
    link(perms, "groups", api.permissions?.groups, "permissions.groups");
    const userModel = users ? resolve(users) : undefined;
    const userGroups = userModel?.spec.fields.groups;
    if (userModel && groups) {
      if (userGroups?.kind !== "m2m") err(userModel.file, `the auth.users model needs a field "groups", a many-to-many link to permissions.groups ${api.permissions.groups}`, userModel.spec.name, "groups");
      else link(userModel, "groups", api.permissions.groups, "permissions.groups");
    }
  }
}

/**
 * The content-type registry (api `contentTypes`): a model whose rows the migrations write, so
 * clients only read it, with the string fields its rows fill.
 */
function checkRegistry(
  ref: string,
  resolve: (target: string) => { spec: ModelSpec; file: string } | undefined,
  err: (file: string | undefined, message: string, model?: string, field?: string) => void,
): void {
  const registry = resolve(ref);
  if (!registry) {
    err(undefined, `contentTypes names unknown model "${ref}"`);
    return;
  }
  const { spec, file } = registry;
  for (const name of Object.values(CONTENT_TYPE_FIELDS)) {
    const f = spec.fields?.[name];
    if (!(f?.kind === "scalar" && f.type === "string")) err(file, `the contentTypes model needs a string field "${name}"`, spec.name);
  }
  const ops = spec.operations;
  if (!ops || ops.some((op) => op !== "list" && op !== "retrieve")) {
    err(file, "the contentTypes model is written by migrations only: operations must name only list and retrieve", spec.name);
  }
  if (spec.view !== undefined) err(file, "the contentTypes model needs a table of its own, not a view", spec.name);
}

/** The api's custom-field models: the fields the runtime reads from their rows. */
function checkCustomFieldModels(
  ref: { definitions: string; choices: string; slugKeysSince?: string },
  resolve: (target: string) => { spec: ModelSpec; file: string } | undefined,
  versions: string[],
  err: (message: string) => void,
): void {
  const definitions = resolve(ref.definitions)?.spec;
  const choices = resolve(ref.choices)?.spec;
  if (!definitions) err(`customFields.definitions names unknown model "${ref.definitions}"`);
  if (!choices) err(`customFields.choices names unknown model "${ref.choices}"`);
  if (!definitions || !choices) return;
  for (const name of ["name", "label", "type", "required", "filter_logic", "default", "weight", "validation_minimum", "validation_maximum", "validation_regex"]) {
    if (!definitions.fields[name]) err(`customFields.definitions needs a field "${name}"`);
  }
  if (ref.slugKeysSince !== undefined) {
    if (!versions.includes(ref.slugKeysSince)) err(`customFields.slugKeysSince "${ref.slugKeysSince}" is not a supported API version (supported: ${versions.join(", ")})`);
    if (!definitions.fields.slug) err(`customFields.definitions needs a field "slug" for slugKeysSince`);
  }
  const types = Object.values(definitions.fields).find((f) => f.kind === "contentTypes");
  if (!types || types.feature !== "customFields") err("customFields.definitions needs a contentTypes field of the customFields feature");
  const field = choices.fields.field;
  if (!(field?.kind === "fk" && field.target === ref.definitions) || !choices.fields.value || !choices.fields.weight) {
    err("customFields.choices needs `field` (a foreign key to the definitions), `value` and `weight`");
  }
}

/** Hand-written SQL blocks: each has its `up` text, and only `up` and `down`. */
function checkSqlBlocks(blocks: Record<string, { up: string; down?: string }> | undefined, err: (message: string) => void): void {
  for (const [name, block] of Object.entries(blocks ?? {})) {
    if (!/^[a-z][a-z0-9_]*$/.test(name)) err(`sql block "${name}": names are lower-case letters, digits and underscores`);
    if (typeof block?.up !== "string" || !block.up.trim()) err(`sql block "${name}" needs its up SQL`);
    if (block?.down !== undefined && typeof block.down !== "string") err(`sql block "${name}": down must be SQL text`);
    for (const key of Object.keys(block ?? {})) if (key !== "up" && key !== "down") err(`sql block "${name}": unknown option "${key}" (known: up, down)`);
  }
}

interface FieldCtx {
  api: ApiSpec;
  err: (file: string, message: string, model?: string, field?: string) => void;
  checkRef: (file: string, model: string, field: string, target: string) => boolean;
  resolve: (target: string) => { spec: ModelSpec; file: string } | undefined;
  versions: string[];
  fields: Record<string, FieldSpec>;
  /** The API's auth.users model reference, if any. */
  users?: string;
}

function checkField(file: string, m: ModelSpec, name: string, f: FieldSpec, ctx: FieldCtx): void {
  const { err } = ctx;
  for (const v of [f.since, f.until, f.requiredSince]) {
    if (v !== undefined && !ctx.versions.includes(v)) err(file, `version "${v}" is not a supported API version (supported: ${ctx.versions.join(", ")})`, m.name, name);
  }
  if (f.nestedOnly && (!f.readOnly || f.writeOnly)) err(file, "a nestedOnly field is read-only and shown: readOnly: true, and not writeOnly", m.name, name);
  if (f.since !== undefined && f.until !== undefined && ctx.versions.indexOf(f.until) < ctx.versions.indexOf(f.since)) {
    err(file, `until "${f.until}" comes before since "${f.since}": no version would show the field`, m.name, name);
  }
  // Creates through versions before `since` cannot give the field: its default must.
  if (f.since !== undefined && f.required && f.default === undefined && !f.readOnly) {
    err(file, `a required field with since "${f.since}" needs a default, which creates through earlier versions get`, m.name, name);
  }
  if (f.requiredSince !== undefined && !f.required) err(file, `requiredSince "${f.requiredSince}" needs required: true`, m.name, name);
  if (f.required && f.readOnly) err(file, "a field cannot be both required and read-only", m.name, name);
  const stored = f.kind === "scalar" || f.kind === "choice" || f.kind === "list" || f.kind === "fk" || f.kind === "status";
  if (f.renamedFrom !== undefined) {
    if (!stored) err(file, `renamedFrom applies to fields stored in a column (not ${f.kind})`, m.name, name);
    else if (typeof f.renamedFrom !== "string" || f.renamedFrom in ctx.fields) err(file, `renamedFrom must name the field's old name, which no field has now`, m.name, name);
  }
  if (f.backfill !== undefined && !(f.kind === "scalar" || f.kind === "choice" || f.kind === "status")) err(file, `backfill applies to scalar, choice and status fields (not ${f.kind})`, m.name, name);
  if ((f.uniqueCheckedBy !== undefined || f.uniqueMessage !== undefined) && !f.unique) err(file, "uniqueCheckedBy and uniqueMessage apply to unique fields", m.name, name);
  const rules = specKindOf(f);
  if (!rules) {
    err(file, `unknown field kind "${(f as { kind: string }).kind}"`, m.name, name);
    return;
  }
  rules.check(f, {
    api: ctx.api, model: m, name, fields: ctx.fields, versions: ctx.versions, resolve: ctx.resolve, users: ctx.users,
    checkRef: (target) => ctx.checkRef(file, m.name, name, target),
    err: (message) => err(file, message, m.name, name),
  });
}

/**
 * An ordering path (`device.name`): each step but the last a foreign key, the last a stored
 * scalar or choice field of the model reached, whose column the list's ORDER BY reads through
 * joins. (A link at the end would order by another model's ordering, which Django expands but
 * these paths spell out.)
 */
function checkOrderingPath(m: ModelSpec, ordering: string, resolve: (target: string) => { spec: ModelSpec } | undefined, err: (message: string) => void): void {
  const path = ordering.replace(/^-/, "").split(".");
  let spec: ModelSpec | undefined = m;
  for (const step of path.slice(0, -1)) {
    const f: FieldSpec | undefined = spec.fields[step];
    if (f?.kind !== "fk") return err(`ordering path "${ordering}" must follow foreign keys, and "${step}" is not one`);
    spec = resolve(f.target)?.spec;
    if (!spec) return;
  }
  const leaf = spec.fields[path[path.length - 1]];
  if (leaf?.kind !== "scalar" && leaf?.kind !== "choice") err(`ordering path "${ordering}" must end at a scalar or choice field of ${spec.app}.${spec.name}`);
}
