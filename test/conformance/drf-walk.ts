// Conformance: walks every model of every DRF-profile API descriptor against the real
// server, in every API version, and checks each response against the OpenAPI document the
// generator emitted for that version. Payloads and filter values are built from the
// descriptors alone (field types, required flags, targets, filter kinds); no model is named.
// The walk is cut into shards (test/conformance/drf-<n>.test.ts), each a share of the models,
// so that the suite's parallel workers share it.
import { expect } from "chai";
import { servedDocument } from "../../runtime/profiles/drf/documents.js";
import { randomUUID } from "node:crypto";
import { apis } from "../../generated/server.js";
import {
  isLink, isRelation, listServedBy, requiredIn, type ApiDescriptor, type ChoiceField, type ContentTypesField, type FieldDescriptor, type FilterDescriptor, type FkField, type ListField, type ModelDescriptor, type ScalarField,
} from "../../runtime/descriptor.js";
import { call, type Reply } from "../support/http.js";
import { startTestServer } from "../support/server.js";
import { Contract, type Method } from "../support/contract.js";

type Json = Record<string, any>;

const WRITABLE_KINDS = new Set(["scalar", "choice", "list", "fk", "treeParent", "m2m", "tags", "customFields", "contentType", "contentTypes", "status"]);
let counter = 0;
/** A value no other test run has used: unique fields stay unique across runs and databases. */
const uniq = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomUUID().slice(0, 4)}`;

/**
 * What of a model a version's walk covers. The newest version walks every model in full; an
 * older one only the models whose paths, or any schema they reach, it documents otherwise (a
 * field it lacks or shows differently, a nested form that changed), and their filters only
 * where it documents the list's parameters otherwise. The server's code is one for every
 * version, steered by what the document shows, so walking what two versions document alike
 * again would repeat the same requests: it would add the suite's time again for each version
 * and find nothing new.
 */
interface Walked {
  model(m: ModelDescriptor): boolean;
  filters(m: ModelDescriptor): boolean;
}

/** Checks the served document of `version`, then walks what `walked` names. */
function conformance(api: ApiDescriptor, version: string, walked: Walked, shard: Shard): void {
  const byKey = new Map(api.models.map((m) => [m.key, m]));
  const headers = { Accept: `application/json; version=${version}` };
  const contract = Contract.of(`${api.name}-${version}.json`, () => api.openapi[version] as Json);
  const versions = api.versions.supported;
  const inVersion = (f: FieldDescriptor) => {
    const i = versions.indexOf(version);
    return !(f.since && i < versions.indexOf(f.since)) && !(f.until && i > versions.indexOf(f.until));
  };
  // Opt-in fields answer writes, and a GET only when its include names them.
  const readable = (m: ModelDescriptor, write = false) => m.fields.filter((f) => !f.writeOnly && inVersion(f) && (write || !f.optIn)).map((f) => f.name).sort();
  // A nested or brief form: the same in every version (Nautobot versions full serializers only).
  const shape = (m: ModelDescriptor, names: string[]) => names.filter((n) => {
    const f = m.fields.find((x) => x.name === n);
    return f && !f.writeOnly;
  }).sort();
  const writable = (m: ModelDescriptor) => m.fields.filter((f) => !f.readOnly && inVersion(f) && WRITABLE_KINDS.has(f.kind));
  const listPath = (m: ModelDescriptor) => `${api.basePath}${m.app}/${m.route}/`;
  const detailTemplate = (m: ModelDescriptor) => `${listPath(m)}{id}/`;
  // A detail path, or an action's beside it (`…/<id>/available-ips/`).
  const templateOf = (path: string) => path.split("?")[0].replace(/\/([0-9a-f-]{36}|\d+)\/([a-z-]+\/)?$/, "/{id}/$2");

  /** Thrown when a display path leaves what the reply shows (a grandparent nested forms omit): nothing to compare. */
  const UNKNOWABLE = Symbol("unknowable");

  /** The display string the descriptor's template gives for an object, or undefined when a part is not in the reply. */
  function expectedDisplay(m: ModelDescriptor, o: Json, parts = m.display): string | undefined {
    try {
      return displayOf(o, parts);
    } catch (err) {
      if (err === UNKNOWABLE) return undefined;
      throw err;
    }
  }

  function displayOf(o: Json, parts: ModelDescriptor["display"]): string | undefined {
    let out = "";
    for (const part of parts) {
      if ("text" in part) { out += part.text; continue; }
      if ("first" in part) {
        // The first alternative whose fields all have values (null and "" count as none).
        const shown = part.first.find((alt) => alt.every((p) => !("path" in p) || !!displayOf(o, [p])));
        if (shown) out += displayOf(o, shown) ?? "";
        continue;
      }
      let value: unknown = o;
      for (const name of part.path) {
        if (value !== null && typeof value === "object" && !(name in (value as Json))) throw UNKNOWABLE;
        value = value !== null && typeof value === "object" ? (value as Json)[name] : undefined;
      }
      // A content type's name (`DCIM | site`) is the registry's, which the reply does not show.
      if (part.as === "display" && typeof value === "string") throw UNKNOWABLE;
      // A choice shows its stored value, as a model's __str__ does (a secrets group association: "SSH username"), or its label.
      if (value !== null && typeof value === "object" && "value" in value) value = (value as Json)[part.as === "display" ? "label" : "value"];
      if (part.as === "ranges" && Array.isArray(value)) value = ranges(value as number[]);
      // DRF's time (`….250000Z`) as Python's isoformat writes it: `….250000+00:00`, no fraction when it is zero.
      if (part.as === "isoformat" && typeof value === "string") value = value.replace(/\.000000Z$/, "Z").replace(/Z$/, "+00:00");
      if (typeof value !== "string" && typeof value !== "number") return undefined;
      out += part.last ? String(value).slice(-part.last) : String(value);
    }
    return out;
  }

  /** Integers sorted and run together, as Nautobot's array_to_string: [80, 22, 81] → "22, 80-81". */
  function ranges(values: number[]): string {
    const runs: number[][] = [];
    for (const v of [...values].sort((a, b) => a - b)) {
      const run = runs[runs.length - 1];
      if (run && v === run[run.length - 1] + 1) run.push(v);
      else runs.push([v]);
    }
    return runs.map((r) => (r.length > 1 ? `${r[0]}-${r[r.length - 1]}` : String(r[0]))).join(", ");
  }

  /** Related objects inside a reply use the target's nested form; tags and m2m lists too. */
  function expectNestedShapes(m: ModelDescriptor, o: Json): void {
    for (const f of m.fields) {
      if (!inVersion(f) || !(f.name in o) || o[f.name] === null) continue;
      const target = isRelation(f) ? byKey.get(f.target)! : undefined;
      if (isLink(f) && typeof o[f.name] === "string") expect("asId" in f && f.asId, `${m.name}.${f.name} shown as an id`).to.equal(true);
      else if (isLink(f)) expect(Object.keys(o[f.name]).sort(), `${m.name}.${f.name}`).to.deep.equal(shape(target!, ("shape" in f && f.shape) || target!.nested));
      if (f.kind === "m2m" || f.kind === "tags") {
        for (const x of o[f.name]) expect(Object.keys(x).sort(), `${m.name}.${f.name}[]`).to.deep.equal(shape(target!, target!.nested));
      }
    }
  }

  async function req(method: Method, path: string, body?: unknown): Promise<Reply> {
    const reply = await call(method.toUpperCase(), path, { headers, body });
    expect(reply.status, `${method.toUpperCase()} ${path}: ${reply.text.slice(0, 300)}`).to.be.below(500);
    if (reply.status < 400) expect(reply.headers.get("api-version"), `${method.toUpperCase()} ${path}`).to.equal(version);
    // Whatever the server accepted, the document must accept: its request schemas are not stricter.
    if (reply.status < 300 && body !== undefined) contract.checkRequest(method, templateOf(path), body);
    return reply;
  }

  /**
   * Whether a model whose rows only the server writes (the change log: no create) has none yet,
   * so there is nothing to look at; they exist once something wrote them.
   */
  async function noneToLookAt(m: ModelDescriptor): Promise<boolean> {
    if (m.operations.includes("create") && suiteWrites(m)) return false;
    const latest = { headers: { Accept: `application/json; version=${versions.at(-1)}` } };
    return (await call("GET", `${listPath(m)}?limit=1`, listServed(m) ? latest : { headers })).body.count === 0;
  }

  /** Whether this suite writes the model: JSON bodies can give every field it requires (no upload). */
  const suiteWrites = (m: ModelDescriptor) => !m.fields.some((f) => f.kind === "imageFile" && f.required);

  /**
   * A user whose token may not write, for the refusals every model's write gets: one a version,
   * as each refusal depends on the token alone, and making a user hashes its password twice.
   */
  let madeReader: Promise<{ key: string }> | undefined;
  const readOnlyUser = () => (madeReader ??= startTestServer().then((server) => server.user(`conf-ro-${uniq()}`, { writeEnabled: false })));

  /** A tag of the API made from the descriptor: every content type it may have, so it applies to any tagged model. */
  let madeTag: Promise<Json> | undefined;
  const universalTag = () => (madeTag ??= make(api.tagModel!));

  /** The action answering the model's list in this version, in place of the page of objects (ActionSpec.servesList). */
  const listServed = (m: ModelDescriptor) => listServedBy(m, version, versions);

  /** Some object of the model, created from the descriptor when the database holds none. */
  const anyObject = new Map<string, Promise<Json>>();
  function existing(m: ModelDescriptor): Promise<Json> {
    if (!anyObject.has(m.key)) {
      anyObject.set(m.key, (async () => {
        // Where an action answers this version's list, the objects are those of the latest version's.
        const list = listServed(m)
          ? await call("GET", `${listPath(m)}?limit=1`, { headers: { Accept: `application/json; version=${versions.at(-1)}` } })
          : await req("get", `${listPath(m)}?limit=1`);
        if (list.body.results?.length) return list.body.results[0];
        const created = await req("post", listPath(m), await payload(m, true));
        expect(created.status, created.text).to.equal(201);
        return created.body;
      })());
    }
    return anyObject.get(m.key)!;
  }

  function scalarValue(f: ScalarField): unknown {
    const u = uniq();
    switch (f.type) {
      case "uuid": return randomUUID();
      case "string": case "text": {
        if (f.format === "email") return `c${u}@example.com`.slice(-(f.maxLength ?? 254));
        if (f.format === "url") return `https://example.com/${u}`;
        if (f.format === "color") return "aa11bb";
        const min = f.minLength ?? 0;
        const v = min > u.length + 5 ? `conf-${u}`.padEnd(min, "0") : `conf-${u}`;
        return f.maxLength ? v.slice(0, f.maxLength) : v;
      }
      case "password": return `Pw-${u}`;
      case "integer": {
        const lo = f.min ?? 1;
        const hi = f.max ?? lo + 100_000;
        return lo + (parseInt(u.slice(-4), 36) % Math.max(1, hi - lo));
      }
      case "float": return 1.5;
      case "decimal": return "12.5";
      case "boolean": return true;
      case "date": return "2024-01-02";
      case "datetime": return "2031-01-02T03:04:05Z";
      case "json": return f.schema?.type === "array" ? [1] : { conformance: u };
      case "cidr": {
        const n = parseInt(randomUUID().slice(0, 4), 16);
        return `10.${n >> 8}.${n & 255}.0/24`;
      }
      case "ip": {
        const n = parseInt(randomUUID().slice(0, 6), 16);
        return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${(n & 253) + 1}/24`;
      }
      default: throw new Error(`no sample for type ${f.type}`);
    }
  }

  /** An item of a list field, within its bounds. */
  function listItem(f: ListField): number {
    const lo = f.items.min ?? 1;
    const hi = f.items.max ?? lo + 100_000;
    return lo + (parseInt(uniq().slice(-4), 36) % Math.max(1, hi - lo));
  }

  /** A new object of `key` from `body` over a descriptor-built payload. */
  async function make(key: string, body: Json = {}): Promise<Json> {
    const m = byKey.get(key)!;
    const created = await req("post", listPath(m), { ...(await payload(m)), ...body });
    expect(created.status, created.text).to.equal(201);
    return created.body;
  }

  /** The id of a job the jobs list shows with `flag` set (a job-hook or job-button receiver). */
  async function receiverJob(flag: string): Promise<string> {
    const jobs = byKey.get(api.jobs!.jobs)!;
    // API 1.2 lists job classes, not records: ask in the newest version.
    const found = await call("GET", `${listPath(jobs)}?${flag}=true&limit=1`, { headers: { Accept: `application/json; version=${versions.at(-1)}` } });
    expect(found.body.results, `a job with ${flag}`).to.have.length(1);
    return found.body.results[0].id;
  }
  const contentTypesInTurn = [...byKey.keys()];
  let hooksMade = 0;

  /**
   * Models whose hooks tie fields together (a model rule, not a type): the related objects a
   * valid body needs, made for it. Everything else in the body stays descriptor-built.
   */
  const RELATED_BY_RULE: Record<string, (current?: Json) => Promise<Json>> = {
    // Bays belong to devices of a parent type.
    "dcim.devicebay": async () => {
      const type = await make("dcim.devicetype", { subdevice_role: "parent" });
      return { device: (await make("dcim.device", { device_type: type.id })).id };
    },
    // A reservation's units must be free in its rack: each sample gets a rack of its own.
    "dcim.rackreservation": async () => ({ rack: (await make("dcim.rack")).id }),
    // A front port maps to a rear port of its own device (type).
    "dcim.frontport": async () => {
      const device = await make("dcim.device");
      return { device: device.id, rear_port: (await make("dcim.rearport", { device: device.id })).id, rear_port_position: 1 };
    },
    // A cable joins two uncabled ends that suit each other, and keeps them for life.
    "dcim.cable": async (current) => {
      if (current) return Object.fromEntries(["termination_a_type", "termination_a_id", "termination_b_type", "termination_b_id"].map((k) => [k, current[k]]));
      const [a, b] = [await make("dcim.interface", { type: "1000base-t" }), await make("dcim.interface", { type: "1000base-t" })];
      return { termination_a_type: "dcim.interface", termination_a_id: a.id, termination_b_type: "dcim.interface", termination_b_id: b.id };
    },
    // A service is on a device (or a virtual machine), and its protocol may not be blank.
    "ipam.service": async () => ({ device: (await existing(byKey.get("dcim.device")!)).id, protocol: "tcp" }),
    // A termination is at a site (or in a provider network), one per side of its circuit.
    "circuits.circuittermination": async () => ({
      circuit: (await make("circuits.circuit")).id, site: (await existing(byKey.get("dcim.site")!)).id,
    }),
    // A location of a top-level type sits at a site, and keeps its type for life.
    "dcim.location": async (current) => ({
      location_type: current ? current.location_type.id : (await make("dcim.locationtype")).id, site: (await existing(byKey.get("dcim.site")!)).id,
    }),
    // Location types that permit every kind of object, so any may be placed in their locations.
    "dcim.locationtype": async () => {
      const kinds = byKey.get("dcim.locationtype")!.fields.find((f) => f.name === "content_types") as ScalarField;
      return { content_types: (kinds.schema as { items: { enum: string[] } }).items.enum };
    },
    // A secret names a provider this server has.
    "extras.secret": async () => ({ provider: "environment-variable", parameters: { variable: "HOME" } }),
    // A Git repository's URL is one its sync can fetch, and its contents are among those registered.
    "extras.gitrepository": async () => ({ remote_url: "https://example.com/repo.git", provided_contents: ["extras.job"] }),
    // An association joins objects of its relationship's types, once: each sample gets its own three.
    "extras.relationshipassociation": async (current) => {
      if (current) return Object.fromEntries(["source_type", "source_id", "destination_type", "destination_id"].map((k) => [k, current[k]]).concat([["relationship", current.relationship.id]]));
      const relationship = await make("extras.relationship", { type: "many-to-many", source_type: "dcim.site", destination_type: "ipam.vrf", source_filter: null, destination_filter: null });
      return {
        relationship: relationship.id, source_type: "dcim.site", source_id: (await make("dcim.site")).id,
        destination_type: "ipam.vrf", destination_id: (await make("ipam.vrf")).id,
      };
    },
    // One secret per access and secret type in a group: each sample gets a group of its own.
    "extras.secretsgroupassociation": async (current) => ({ group: current ? current.group.id : (await make("extras.secretsgroup")).id }),
    // A custom field keeps its name, slug and type for life (versions from 1.4 show no name);
    // samples apply to tags only, so the other suites' objects keep the custom fields they expect.
    "extras.customfield": async (current) => ({
      content_types: ["extras.tag"],
      ...(current ? { ...("name" in current ? { name: current.name } : {}), slug: current.slug, type: current.type.value } : {}),
    }),
    // Choices belong to selection fields.
    "extras.customfieldchoice": async (current) => ({
      field: current ? current.field.id : (await make("extras.customfield", { type: "select" })).id,
    }),
    // A webhook is sent for some kind of change, and no two for the same kind and content type go to one URL.
    "extras.webhook": async () => ({ type_create: true, payload_url: `https://hooks.example/${uniq()}` }),
    // A group's filter is one its content type's filter set takes, and its content type stays.
    "extras.dynamicgroup": async (current) => ({ filter: {}, ...(current ? { content_type: current.content_type } : {}) }),
    // A membership joins two groups of one content type under a parent without a filter: each sample gets its own two.
    "extras.dynamicgroupmembership": async () => {
      const [parent, child] = [await make("extras.dynamicgroup", { content_type: "dcim.device" }), await make("extras.dynamicgroup", { content_type: "dcim.device" })];
      return { parent_group: parent.id, group: child.id };
    },
    // A saved query's text must parse; its variables are the ones the text defines.
    "extras.graphqlquery": async () => ({ query: "{ sites { slug } }" }),
    // A job button runs a job-button receiver.
    "extras.jobbutton": async (current) => ({ job: current ? current.job.id : await receiverJob("is_job_button_receiver") }),
    // A job hook runs a job-hook receiver for some kind of change, and no two hooks of a job share
    // a kind of change on a content type: each sample watches a content type of its own.
    "extras.jobhook": async (current) => ({
      job: current ? current.job.id : await receiverJob("is_job_hook_receiver"),
      content_types: current ? current.content_types : [contentTypesInTurn[hooksMade++ % contentTypesInTurn.length]],
      type_create: true,
    }),
    // A permission grants some action.
    "users.objectpermission": async () => ({ actions: ["view"] }),
    "dcim.frontporttemplate": async () => {
      const type = await make("dcim.devicetype");
      return { device_type: type.id, rear_port: (await make("dcim.rearporttemplate", { device_type: type.id })).id, rear_port_position: 1 };
    },
  };

  /** Nullable fields a model's rule may still require, refusing null with a 400 naming them (a top-level location's site). */
  const REQUIRED_BY_RULE: Record<string, string[]> = { "dcim.location": ["site"] };

  /** Foreign keys of which a model's rule wants exactly one set (a circuit termination's site or provider network). */
  const ONE_OF_BY_RULE: Record<string, string[]> = {
    "circuits.circuittermination": ["site", "provider_network"],
    "ipam.service": ["device", "virtual_machine"],
  };

  /** What else a write setting `field` of `m` (to null or a row) must change so the model's rules still hold. */
  async function companions(m: ModelDescriptor, field: string, nulling: boolean): Promise<Json> {
    const others = (ONE_OF_BY_RULE[m.key] ?? []).filter((n) => n !== field);
    if (!others.length || !ONE_OF_BY_RULE[m.key].includes(field)) return {};
    if (!nulling) return Object.fromEntries(others.map((n) => [n, null]));
    const other = m.fields.find((f) => f.name === others[0]) as FkField;
    return { [other.name]: (await existing(byKey.get(other.target)!)).id, ...Object.fromEntries(others.slice(1).map((n) => [n, null])) };
  }

  /**
   * A valid create/PUT body: every required writable field (or, when `full`, every scalar that
   * has no default; nullable ones default to null and may be tied to other fields by a model's rules).
   * `current` is the object a PUT replaces, for rules that keep some of its values.
   */
  async function payload(m: ModelDescriptor, full = false, current?: Json): Promise<Json> {
    const body: Json = {};
    for (const f of writable(m)) {
      if (!requiredIn(f, version, versions) && !(full && f.kind === "scalar" && !f.pattern && !f.slugFrom && f.default === undefined && !f.nullable)) continue;
      if (f.kind === "scalar") body[f.name] = scalarValue(f);
      else if (f.kind === "choice") body[f.name] = f.choices[0][0];
      else if (f.kind === "status") body[f.name] = f.defaults[0];
      else if (f.kind === "list") body[f.name] = [listItem(f), listItem(f)];
      else if (isLink(f)) body[f.name] = (await existing(byKey.get(f.target)!)).id;
      else if (f.kind === "m2m") body[f.name] = [(await existing(byKey.get(f.target)!)).id];
      // A tag may be limited to some models: one made here applies to every model (or is unlimited).
      else if (f.kind === "tags") body[f.name] = [(await universalTag()).id];
      else if (f.kind === "contentTypes") body[f.name] = f.models;
      else if (f.kind === "customFields") body[f.name] = {};
      else if (f.kind === "contentType") body[f.name] = f.models[0];
    }
    return { ...body, ...(await RELATED_BY_RULE[m.key]?.(current)) };
  }

  /** What a reply shows for a written value: choices as {value}, related objects nested by id. */
  function expectEcho(m: ModelDescriptor, sent: Json, got: Json): void {
    for (const [name, value] of Object.entries(sent)) {
      const f = m.fields.find((x) => x.name === name)!;
      if (f.writeOnly) {
        expect(got, name).to.not.have.property(name);
        continue;
      }
      if (f.kind === "choice") expect(f.plain ? got[name] : got[name]?.value, name).to.equal(value);
      else if (f.kind === "status") expect(got[name]?.value, name).to.equal(value);
      else if (isLink(f)) {
        expect(got[name]?.id, name).to.equal(value);
        expect(Object.keys(got[name]).sort(), `${name}: nested shape`).to.deep.equal(shape(byKey.get(f.target)!, byKey.get(f.target)!.nested));
      } else if (f.kind === "scalar" && f.type === "datetime") expect(Date.parse(got[name]), name).to.equal(Date.parse(String(value)));
      else if ((f.kind === "scalar" && f.type !== "cidr" && f.type !== "ip") || f.kind === "list") expect(got[name], name).to.deep.equal(value);
    }
  }

  /** DRF's OPTIONS `type` for a field (reference inventory.md, "Field info"): its serializer field class. */
  function optionsType(f: FieldDescriptor): string {
    switch (f.kind) {
      // An integer key (Django's AutoField) is described as an integer.
      case "id": return f.integer ? "integer" : "string";
      case "count": case "depth": return "integer";
      case "fk": case "treeParent": case "firstSet": return "nested object";
      case "list": return "list";
      case "scalar":
        if (f.format === "email") return "email";
        if (f.format === "url") return "url";
        return ({ integer: "integer", float: "float", decimal: "decimal", boolean: "boolean", date: "date", datetime: "datetime", json: "field" } as Record<string, string>)[f.type!] ?? "string";
      default: return "field";
    }
  }

  /** A value of the wrong type or out of bounds for a writable field, or undefined when every value fits. */
  function invalidValue(f: FieldDescriptor): unknown {
    if (f.kind === "choice" || f.kind === "status") return "no-such-choice";
    if (isLink(f)) return randomUUID();
    if (f.kind === "list") return f.items.max !== undefined ? [f.items.max + 1] : ["abc"];
    if (f.kind !== "scalar") return undefined;
    switch (f.type) {
      case "string": case "text": case "password":
        if (f.format === "email") return "not-an-email";
        return f.maxLength ? "x".repeat(f.maxLength + 1) : { not: "a string" };
      case "integer": return "abc";
      case "float": return "abc";
      case "decimal": return "abc";
      case "boolean": return "maybe";
      case "uuid": return "not-a-uuid";
      case "date": return "2024-02-30";
      case "datetime": return "not-a-time";
      case "cidr": return "10.0.0.0/33";
      case "ip": return "300.1.1.1";
      default: return undefined;
    }
  }

  /** A value each filter should accept, from the descriptor and existing objects. */
  async function goodValue(m: ModelDescriptor, flt: FilterDescriptor, sample: Json): Promise<string> {
    const field = m.fields.find((f) => f.name === flt.field);
    switch (flt.kind) {
      case "uuid": return flt.field === "id" ? sample.id : randomUUID();
      case "string": return flt.lookup.endsWith("re") ? "^c" : "c";
      case "number": return "1";
      case "boolean": case "present": return "true";
      case "choice": return String((field as ChoiceField).choices[0][0]);
      case "fk": {
        // A `via` filter names a foreign key of the model its chain of `via` keys leads to.
        const owner = (flt.via ?? []).reduce((at, link) => byKey.get((at.fields.find((f) => f.name === link) as FkField).target)!, m);
        const target = byKey.get((owner.fields.find((f) => f.name === flt.field) as FkField).target)!;
        return (await existing(target)).id;
      }
      case "date": return "2024-01-01";
      case "datetime": return "2024-01-01T00:00:00Z";
      case "tag": return String((await existing(byKey.get(api.tagModel!)!)).slug);
      case "contentTypes": return (field as ContentTypesField).models[0];
      // Any status row is a valid value, whichever models it applies to.
      case "status": return "active";
      case "q": return "c";
      case "contains": return "1";
      case "method":
        if (flt.takes === "boolean") return "true";
        if (flt.takes === "uuid") return randomUUID();
        if (flt.takes === "number") return "1";
        return flt.takes === "string" ? flt.choices?.[0] ?? "c" : (await existing(byKey.get(flt.takes!)!)).id;
      case "related": case "hasRelated": {
        if (flt.kind === "hasRelated") return "true";
        const other = api.models.find((x) => x.table === flt.related!.table)!;
        // Read now, not from the cache: a suite running beside this one may have deleted that object since.
        const fresh = (await req("get", `${listPath(other)}?limit=1`)).body.results?.[0];
        return (fresh ?? await existing(other)).id;
      }
      case "network":
        switch (flt.network) {
          case "family": return "4";
          case "mask_length": case "mask_length__gte": case "mask_length__lte": return "24";
          case "address": return "10.0.0.1";
          default: return "10.0.0.0/8";
        }
    }
  }

  /** Filters whose documented parameter type is strict enough to refuse the bad values too. */
  const TYPED_IN_DOCUMENT = new Set(["uuid", "number", "boolean", "choice", "date", "datetime", "contains", "contentTypes"]);
  const typedInDocument = (flt: FilterDescriptor) => TYPED_IN_DOCUMENT.has(flt.kind) ||
    (flt.kind === "fk" && flt.idOnly === true) || (flt.kind === "method" && ["boolean", "number", "uuid"].includes(flt.takes!)) || (flt.kind === "network" && /^(family|mask_length)/.test(flt.network ?? ""));

  /** Values each typed filter must refuse with 400 (never 5xx); untyped filters get none. */
  /** `filters` in batches whose query strings stay well within what a server takes in a request line (some 4 kB each). */
  function batches(filters: FilterDescriptor[], size: (flt: FilterDescriptor) => number): FilterDescriptor[][] {
    const out: FilterDescriptor[][] = [];
    let length = Infinity;
    for (const flt of filters) {
      if (length + size(flt) > 4000) out.push([]), (length = 0);
      out.at(-1)!.push(flt);
      length += size(flt) + 2;
    }
    return out;
  }

  function badValues(flt: FilterDescriptor): string[] {
    switch (flt.kind) {
      case "uuid": return ["not-a-uuid"];
      case "number": case "contains": return ["abc"];
      case "boolean": return ["maybe"];
      case "choice": case "status": return ["no-such-choice"];
      case "fk": return ["no-such-object"];
      case "method": return flt.takes === "boolean" ? ["maybe"] : flt.takes === "uuid" ? ["not-a-uuid"] : flt.takes === "number" ? ["abc"] : flt.takes === "string" ? (flt.choices ? ["no-such-choice"] : []) : ["no-such-object"];
      // 2024-02-30 looks like a date but is none: it must not reach the database.
      case "date": return ["yesterday", "2024-02-30"];
      case "datetime": return ["not-a-time", "2024-02-30T00:00:00Z"];
      case "tag": return ["no-such-tag"];
      case "contentTypes": return ["no.such"];
      case "string": return flt.lookup.endsWith("re") ? ["("] : [];
      case "network":
        switch (flt.network) {
          case "family": return ["5"];
          case "mask_length": case "mask_length__gte": case "mask_length__lte": return ["129", "x"];
          case "address": return ["10.0.0.300"];
          default: return ["10.0.0.0/33"];
        }
      default: return [];
    }
  }

  describe(`conformance: ${api.name} API, version ${version}`, function () {
    this.timeout(120_000);

    if (shard.index === 0) it("serves this version's document, and the API root, app roots and status match it", async () => {
      const served = await call("GET", `${api.basePath}swagger.json?api_version=${version}`, { headers: {} });
      expect(served.status).to.equal(200);
      // The server renders the document with JSON.stringify: the same bytes, compared as text
      // (a deep comparison of two megabytes of objects costs seconds a version).
      expect(served.text === JSON.stringify(servedDocument(api, version, undefined)), "the served document is the generated one").to.equal(true);
      for (const path of [api.basePath, ...api.apps.map((a) => `${api.basePath}${a}/`), `${api.basePath}status/`]) {
        const reply = await req("get", path);
        contract.check("get", path, reply);
      }
      const anonymous = await call("GET", `${api.basePath}status/`, { headers, token: null });
      contract.check("get", `${api.basePath}status/`, anonymous);
    });

    if (shard.index === 0) it("serves the document's other forms, ReDoc and the filter-set lookups as documented", async () => {
      for (const [path, format] of [["swagger/", undefined], ["swagger/", "json"], ["swagger.yaml", undefined], ["redoc/", undefined]]) {
        const query = new URLSearchParams({ ...(format ? { format } : {}), api_version: version });
        const reply = await call("GET", `${api.basePath}${path}?${query}`, { headers: {} });
        expect(reply.status, path).to.equal(200);
        contract.check("get", `${api.basePath}${path}`, reply);
      }
      const m = api.models.find((x) => x.filters.length)!;
      const field = m.filters[0].param;
      for (const name of ["lookup-choices", "lookup-value-dom-element"]) {
        const template = `${api.basePath}core/filterset-fields/${name}/`;
        for (const [query, status] of [[`content_type=${m.key}&field_name=${field}`, 200], ["", 400], [`content_type=${m.key}&field_name=${field}x`, 404]] as const) {
          const reply = await req("get", `${template}?${query}`);
          expect(reply.status, `${name}?${query}`).to.equal(status);
          contract.check("get", template, reply);
        }
      }
    });

    // An app's models are served only where PLUGINS enables the app, which the shared server
    // does not: test/e2e/inventory/apps.test.ts walks them on an instance of their own.
    for (const m of api.models.filter((x, i) => i % shard.of === shard.index && walked.model(x) && !x.plugin)) {
      // A model whose writes need an upload (a multipart body) is read here; its own suite writes it.
      const ops = new Set(m.operations.filter((o) => suiteWrites(m) || o === "list" || o === "retrieve"));
      const list = listPath(m);
      const detail = detailTemplate(m);
      const at = (id: string) => `${list}${id}/`;

      describe(`${m.app}.${m.name} (${list})`, () => {
        let created: Json | undefined;
        let sent: Json = {};

        /**
         * The fields a 400 reply to one PATCH of all their values names. Each value is wrong
         * alone (a bad value, null where a field takes none), and a serializer reports every
         * field's error at once: what the reply names would be refused alone too. Asked together
         * first, they cost one request, not one a field; those the reply leaves unnamed are
         * asked alone, so that a problem names its field, as the filters are.
         */
        async function refusedTogether(values: ReadonlyArray<readonly [FieldDescriptor, unknown]>): Promise<Set<string>> {
          if (values.length < 2) return new Set();
          const reply = await call("PATCH", at(created!.id), { headers, body: Object.fromEntries(values.map(([f, value]) => [f.name, value])) });
          if (reply.status !== 400) return new Set();
          contract.check("patch", detail, reply);
          return new Set(values.map(([f]) => f.name).filter((name) => reply.body?.[name]));
        }

        if (ops.has("create")) {
          it("creates from a descriptor-built payload: 201, documented, values echoed", async () => {
            sent = await payload(m);
            const reply = await req("post", list, sent);
            expect(reply.status, reply.text).to.equal(201);
            contract.check("post", list, reply);
            expect(Object.keys(reply.body).sort()).to.deep.equal(readable(m, true));
            expectEcho(m, sent, reply.body);
            created = reply.body;
          });
        }

        const served = ops.has("list") ? listServed(m) : undefined;
        if (served) {
          it(`answers the list with its action "${served.name}" in this version, as the document says`, async () => {
            const reply = await req("get", list);
            expect(reply.status, reply.text).to.equal(200);
            contract.check("get", list, reply);
          });
        }

        if (ops.has("list") && !served) {
          it("lists in full and brief forms with the descriptor's fields", async function () {
            if (await noneToLookAt(m)) return this.skip();
            const full = await req("get", list);
            expect(full.status, full.text).to.equal(200);
            contract.check("get", list, full);
            expect(full.body.results.length, "no objects to look at").to.be.greaterThan(0);
            for (const o of full.body.results) {
              expect(Object.keys(o).sort()).to.deep.equal(readable(m));
              expectNestedShapes(m, o);
              // A bare model's objects (rows of others, as connections) have no identity of their own.
              if (readable(m).includes("url")) expect(new URL(o.url).pathname).to.equal(`${list}${o.id}/`);
              const display = readable(m).includes("display") ? expectedDisplay(m, o) : undefined;
              if (display !== undefined) expect(o.display, `display of ${o.url}`).to.equal(display);
            }
            const brief = await req("get", `${list}?brief=1`);
            expect(brief.status).to.equal(200);
            contract.check("get", list, brief);
            for (const o of brief.body.results) expect(Object.keys(o).sort()).to.deep.equal(shape(m, m.brief));
          });

          // Those served elsewhere (at a path of their own, or as the list) and those taking a POST body have their own suites.
          const ownActions = (m.actions ?? []).filter((a) => !a.onApp && !a.path && !a.servesList);
          if (ownActions.length) {
            it("answers each action of an object as the document says; one that creates objects takes a POST", async function () {
              if (await noneToLookAt(m)) return this.skip();
              const obj = await existing(m);
              for (const a of ownActions) {
                const template = `${detail}${a.name}/`;
                if (a.method === "POST") {
                  expect((await req("get", `${at(obj.id)}${a.name}/`)).status, `${a.name} answers no GET`).to.equal(405);
                  continue;
                }
                const reply = await req("get", `${at(obj.id)}${a.name}/`);
                // Without the parameters it requires, an action refuses the request.
                const needs = Object.values(a.parameters ?? {}).some((p) => p.required);
                expect(reply.status, `${a.name}: ${reply.text}`).to.equal(needs ? 400 : 200);
                contract.check("get", template, reply);
                if (!a.creates) continue;
                // The made model's required fields, and the request's own required numbers at their least.
                const request = a.creates.request as { properties?: Record<string, Json>; required?: string[] };
                const own = Object.fromEntries((request.required ?? []).map((n) => [n, request.properties?.[n]?.minimum ?? 0]));
                const body = { ...(await payload(byKey.get(a.creates.model)!)), ...own };
                const made = await req("post", `${at(obj.id)}${a.name}/`, body);
                expect([200, 201, 204, 400], `${a.name}: ${made.text}`).to.include(made.status);
                contract.check("post", template, made);
              }
            });
          }

          it("paginates with absolute next/previous links that keep the query", async () => {
            const first = await req("get", `${list}?limit=1&brief=1`);
            contract.check("get", list, first);
            expect(first.body.results).to.have.length(Math.min(1, first.body.count));
            expect(first.body.previous).to.equal(null);
            if (first.body.count < 2) return;
            const next = new URL(first.body.next);
            expect([...next.searchParams]).to.deep.equal([["brief", "1"], ["limit", "1"], ["offset", "1"]]);
            const second = await call("GET", first.body.next, { headers });
            expect(second.status).to.equal(200);
            contract.check("get", list, second);
            expect(JSON.stringify(second.body.results[0])).to.not.equal(JSON.stringify(first.body.results[0]));
            expect(second.body.previous).to.equal(`${next.origin}${next.pathname}?brief=1&limit=1`);
          });

          it("limit=0 gives the maximum page, an offset past the end an empty page, empty brief the full form", async () => {
            const max = Number(api.settings.MAX_PAGE_SIZE ?? 0);
            const all = await req("get", `${list}?limit=0`);
            contract.check("get", list, all);
            if (max) expect(all.body.results).to.have.length(Math.min(all.body.count, max));
            else expect([all.body.results.length, all.body.next, all.body.previous]).to.deep.equal([all.body.count, null, null]);
            const past = await req("get", `${list}?limit=5&offset=${all.body.count + 5}`);
            expect([past.status, past.body.results, past.body.next]).to.deep.equal([200, [], null]);
            expect(past.body.previous).to.be.a("string");
            contract.check("get", list, past);
            const emptyBrief = await req("get", `${list}?brief=&limit=1`);
            for (const o of emptyBrief.body.results) expect(Object.keys(o).sort()).to.deep.equal(readable(m));
          });

          it("refuses an unknown filter with a documented 400", async () => {
            const reply = await req("get", `${list}?no_such_filter=1`);
            expect(reply.status).to.equal(400);
            contract.check("get", list, reply);
            expect(reply.body).to.have.property("no_such_filter");
          });

          if (walked.filters(m)) it("every filter accepts a sensible value and refuses a bad one with 400", async function () {
            if (!created && await noneToLookAt(m)) return this.skip();
            const sample = created ?? (await existing(m));
            const problems: string[] = [];
            const documented = new Set(contract.parameters(list));
            for (const flt of m.filters) if (!documented.has(flt.param)) problems.push(`${flt.param} is not a documented parameter`);
            // One object a page, in brief: whether a filter is taken does not depend on the page's
            // size or form (the other tests check the full form), and the walk's hundreds of
            // filters would otherwise each build a page of fifty objects in full.
            const page = Object.entries({ brief: "1", limit: "1" });
            const get = (pairs: string[][]) => call("GET", `${list}?${new URLSearchParams(pairs)}`, { headers });
            const goods = new Map<FilterDescriptor, string>();
            for (const flt of m.filters) goods.set(flt, await goodValue(m, flt, sample));
            // Filters are asked many at a time, as a filter set takes them (DRF's form reports
            // every field's errors at once): hundreds of filters a model would otherwise be
            // hundreds of requests each. A batch that fails is asked again filter by filter, so
            // that a problem names its filter.
            for (const batch of batches(m.filters, (flt) => flt.param.length * 2 + goods.get(flt)!.length * 2)) {
              const taken = async (part: FilterDescriptor[], repeat: boolean): Promise<void> => {
                const pairs = part.flatMap((flt) => {
                  const good = goods.get(flt)!;
                  // Repeating a parameter ORs its values; "null" matches an unset nullable foreign key.
                  const extra = flt.kind === "fk" && !flt.idOnly && m.fields.find((f) => f.name === flt.field)?.nullable ? "null" : good;
                  return repeat ? [[flt.param, good], [flt.param, extra]] : [[flt.param, good]];
                });
                const reply = await get([...pairs, ...page]);
                if (reply.status === 200) {
                  contract.check("get", list, reply);
                  return;
                }
                if (part.length > 1) for (const flt of part) await taken([flt], repeat);
                else problems.push(`${pairs.map((p) => p.join("=")).join("&")} → ${reply.status} ${reply.text.slice(0, 200)}`);
              };
              await taken(batch, false);
              await taken(batch, true);
            }
            for (const flt of m.filters) {
              if (!contract.acceptsQuery(list, flt.param, goods.get(flt)!)) problems.push(`${flt.param}=${goods.get(flt)}: the server takes it, the document refuses it`);
              for (const bad of badValues(flt)) {
                if (typedInDocument(flt) && contract.acceptsQuery(list, flt.param, bad)) problems.push(`${flt.param}=${bad}: the server refuses it, the document allows it`);
              }
            }
            // The n-th bad value of every filter that has one, together.
            for (let n = 0; m.filters.some((flt) => badValues(flt).length > n); n++) {
              const round = m.filters.filter((flt) => badValues(flt).length > n);
              for (const batch of batches(round, (flt) => flt.param.length + badValues(flt)[n].length * 3)) {
                const refusedAll = async (part: FilterDescriptor[]): Promise<void> => {
                  const reply = await get(part.map((flt) => [flt.param, badValues(flt)[n]]));
                  const missed = part.filter((flt) => !reply.body?.[flt.param]);
                  if (reply.status === 400 && !missed.length) {
                    contract.check("get", list, reply);
                    return;
                  }
                  if (part.length > 1) for (const flt of reply.status === 400 ? missed : part) await refusedAll([flt]);
                  else problems.push(`${part[0].param}=${badValues(part[0])[n]} → ${reply.status} ${reply.text.slice(0, 200)}`);
                };
                await refusedAll(batch);
              }
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
          });

          it("number filters take out-of-range integers without a server error", async () => {
            const numeric = m.filters.filter((f) => f.kind === "number");
            const problems: string[] = [];
            for (const flt of numeric) {
              const reply = await call("GET", `${list}?${flt.param}=99999999999`, { headers });
              if (reply.status >= 500) problems.push(`${flt.param}=99999999999 → ${reply.status} ${reply.text.slice(0, 200)}`);
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
          });
        }

        it("answers without a token, with a read-only token and on missing objects as documented", async () => {
          // The methods the server offers, whichever this suite walks.
          const offered = new Set(m.operations);
          const allowList = [...(offered.has("list") ? ["GET"] : []), ...(offered.has("create") ? ["POST"] : []),
            ...(offered.has("update") ? ["PUT", "PATCH"] : []), ...(offered.has("delete") ? ["DELETE"] : []), "HEAD", "OPTIONS"];
          if (ops.has("list")) {
            const anonymous = await call("GET", list, { headers, token: null });
            expect(anonymous.status).to.equal(403);
            contract.check("get", list, anonymous);
            expect(anonymous.headers.get("allow")).to.equal(allowList.join(", "));
          }
          if (ops.has("create")) {
            const reader = await readOnlyUser();
            const refused = await call("POST", list, { headers, token: reader.key, body: await payload(m) });
            expect(refused.status).to.equal(403);
            contract.check("post", list, refused);
          }
          const missing = at(randomUUID());
          if (ops.has("update")) {
            const put = await req("put", missing, await payload(m));
            expect(put.status).to.equal(404);
            contract.check("put", detail, put);
            const patch = await req("patch", missing, {});
            expect(patch.status).to.equal(404);
            contract.check("patch", detail, patch);
          }
          if (ops.has("delete")) {
            const gone = await req("delete", missing);
            expect(gone.status).to.equal(404);
            contract.check("delete", detail, gone);
          }
        });

        if (ops.has("retrieve")) {
          it("retrieves in full and brief forms", async function () {
            if (!created && await noneToLookAt(m)) return this.skip();
            const id = (created ?? (await existing(m))).id;
            const one = await req("get", at(id));
            expect(one.status, one.text).to.equal(200);
            contract.check("get", detail, one);
            expect(Object.keys(one.body).sort()).to.deep.equal(readable(m));
            const brief = await req("get", `${at(id)}?brief=true`);
            contract.check("get", detail, brief);
            expect(Object.keys(brief.body).sort()).to.deep.equal(shape(m, m.brief));
            const missing = await req("get", at(randomUUID()));
            expect(missing.status).to.equal(404);
            contract.check("get", detail, missing);
          });
        }

        it("OPTIONS describes every field, choices as {value, display}", async () => {
          const reply = await req("get", list).then(() => call("OPTIONS", list, { headers }));
          expect(reply.status).to.equal(200);
          contract.check("options", list, reply);
          contract.check("options", detail, await call("OPTIONS", detail.replace("{id}", randomUUID()), { headers }));
          expect(reply.body.name).to.equal(m.verboseName);
          if (!ops.has("create")) return;
          const post = reply.body.actions?.POST;
          expect(post, "actions.POST").to.be.an("object");
          // A field neither shown nor accepted (a token's owner) is not described.
          const described = m.fields.filter((f) => inVersion(f) && !(f.readOnly && f.writeOnly));
          expect(Object.keys(post).sort()).to.deep.equal(described.map((f) => f.name).sort());
          for (const f of described) {
            const info = post[f.name];
            expect([info.type, info.required, info.read_only, info.label], f.name).to.deep.equal([optionsType(f), requiredIn(f, version, versions), f.readOnly, f.label]);
            if (f.kind === "choice" && !f.readOnly) {
              expect(info.choices).to.deep.equal(f.choices!.map(([value, display]) => ({ value, display })));
            } else if (f.kind === "status" && !f.readOnly) {
              // The model's status rows, by name: at least its defaults (other suites may add more).
              expect(info.choices.map((c: { value: string }) => c.value)).to.include.members(f.defaults);
            } else expect(info, f.name).to.not.have.property("choices");
            if (isLink(f)) {
              const target = byKey.get(f.target)!;
              expect(Object.keys(info.children).sort(), `${f.name} children`).to.deep.equal(shape(target, target.nested));
            }
          }
        });

        if (ops.has("update") && ops.has("create")) {
          it("replaces with PUT and changes one field with PATCH", async () => {
            expect(created, "create failed").to.be.an("object");
            const body = await payload(m, false, created);
            const replaced = await req("put", at(created!.id), body);
            expect(replaced.status, replaced.text).to.equal(200);
            contract.check("put", detail, replaced);
            expectEcho(m, body, replaced.body);
            const [name, value] = Object.entries(await payload(m, true, created)).find(([n]) => m.fields.find((f) => f.name === n)?.kind === "scalar") ?? [];
            const change = name ? { [name]: value } : {};
            const patched = await req("patch", at(created!.id), change);
            expect(patched.status, patched.text).to.equal(200);
            contract.check("patch", detail, patched);
            expectEcho(m, change, patched.body);
            const invalid = await req("put", at(created!.id), {});
            if (writable(m).some((f) => f.required)) {
              expect(invalid.status).to.equal(400);
              contract.check("put", detail, invalid);
            }
          });
        }

        if (ops.has("update") && ops.has("create")) {
          it("refuses a bad value for every writable field with 400 naming it, changing nothing", async () => {
            expect(created, "create failed").to.be.an("object");
            const before = await req("get", at(created!.id));
            const problems: string[] = [];
            const bad = writable(m).map((f) => [f, invalidValue(f)] as const).filter(([, value]) => value !== undefined);
            const refused = await refusedTogether(bad);
            for (const [f, value] of bad) {
              if (!refused.has(f.name)) {
                const reply = await call("PATCH", at(created!.id), { headers, body: { [f.name]: value } });
                if (reply.status !== 400 || !reply.body?.[f.name]) problems.push(`${f.name}=${JSON.stringify(value)} → ${reply.status} ${reply.text.slice(0, 200)}`);
                else contract.check("patch", detail, reply);
              }
              // Where a JSON Schema can tell (types, formats, enums, lengths), the document refuses it too.
              const typed = f.kind === "choice" || (f.kind === "scalar" && !["cidr", "ip", "json"].includes(f.type!));
              if (typed && contract.acceptsBody("patch", detail, { [f.name]: value })) problems.push(`${f.name}=${JSON.stringify(value)}: the server refuses it, the document allows it`);
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
            expect((await req("get", at(created!.id))).body).to.deep.equal(before.body);
          });
        }

        if (ops.has("create") && ops.has("update")) {
          it("bulk edge cases: empty create, invalid item, unknown ids, non-list, non-JSON bodies", async () => {
            const empty = await req("post", list, []);
            expect([empty.status, empty.body]).to.deep.equal([201, []]);
            contract.check("post", list, empty);

            if (writable(m).some((f) => f.required)) {
              const mixed = await req("post", list, [await payload(m), {}]);
              expect(mixed.status).to.equal(400);
              contract.check("post", list, mixed);
              expect(mixed.body).to.be.an("array").with.length(2);
              expect(mixed.body[0]).to.deep.equal({});
            }

            const integerIds = m.fields.some((f) => f.kind === "id" && f.integer);
            const unknown = await req("patch", list, [{ id: integerIds ? 2147483000 : randomUUID() }]);
            expect([unknown.status, unknown.body]).to.deep.equal([400, [{ id: ["Object with this ID does not exist."] }]]);
            contract.check("patch", list, unknown);

            const notList = await req("put", list, { id: randomUUID() });
            expect(notList.status).to.equal(400);
            contract.check("put", list, notList);
            expect(notList.body).to.deep.equal({ non_field_errors: ['Expected a list of items but got type "dict".'] });

            const text = await call("POST", list, { headers: { ...headers, "Content-Type": "text/plain" }, body: "name=x", raw: true });
            expect(text.status).to.equal(415);
            contract.check("post", list, text);
          });
        }

        const protecting = api.models.filter((a) => !a.plugin).flatMap((a) => a.fields
          .filter((f) => f.kind === "fk" && f.target === m.key && f.onDelete === "protect" && !f.readOnly && a.operations.includes("create"))
          .map((f) => ({ model: a, field: f })));
        if (protecting.length && ops.has("create") && ops.has("delete")) {
          it(`a protecting foreign key (${protecting[0].model.name}.${protecting[0].field.name}) blocks delete with 409`, async () => {
            const { model: a, field } = protecting[0];
            const target = await req("post", list, await payload(m));
            expect(target.status, target.text).to.equal(201);
            const dependent = await req("post", listPath(a), { ...(await payload(a)), [field.name]: target.body.id, ...(await companions(a, field.name, false)) });
            expect(dependent.status, dependent.text).to.equal(201);
            const blocked = await req("delete", at(target.body.id));
            expect(blocked.status).to.equal(409);
            contract.check("delete", detail, blocked);
            const bulkBlocked = await req("delete", list, [{ id: target.body.id }]);
            expect(bulkBlocked.status).to.equal(409);
            contract.check("delete", list, bulkBlocked);
            expect((await req("delete", `${listPath(a)}${dependent.body.id}/`)).status).to.equal(204);
            expect((await req("delete", at(target.body.id))).status).to.equal(204);
          });
        }

        if (ops.has("update") && ops.has("create")) {
          it("takes null exactly where a field is nullable, as the document says", async () => {
            expect(created, "create failed").to.be.an("object");
            const problems: string[] = [];
            const fields = writable(m).filter((x) => x.kind === "scalar" || x.kind === "choice" || isLink(x));
            // Null for a field that is not nullable, and that no rule of the model ties to another, is wrong alone.
            const refused = await refusedTogether(fields.filter((f) => !f.nullable && !REQUIRED_BY_RULE[m.key]?.includes(f.name) && !ONE_OF_BY_RULE[m.key]?.includes(f.name)).map((f) => [f, null] as const));
            for (const f of fields) {
              const documented = contract.acceptsBody("patch", detail, { [f.name]: null });
              if (refused.has(f.name)) {
                if (documented) problems.push(`${f.name}=null: the server refuses it, the document allows it`);
                continue;
              }
              const reply = await call("PATCH", at(created!.id), { headers, body: { [f.name]: null, ...(await companions(m, f.name, true)) } });
              if (REQUIRED_BY_RULE[m.key]?.includes(f.name)) {
                if (reply.status !== 400 || !reply.body?.[f.name]) problems.push(`${f.name}=null → ${reply.status} ${reply.text.slice(0, 200)} (the model's rule requires it)`);
              } else if (f.nullable) {
                if (reply.status !== 200 || (!f.writeOnly && reply.body[f.name] !== null)) problems.push(`${f.name}=null → ${reply.status} ${reply.text.slice(0, 200)}`);
                if (!documented) problems.push(`${f.name}=null: the server takes it, the document refuses it`);
              } else if (reply.status === 200) {
                // Accepted although not nullable: only right when the document allows it too (blank choices).
                if (!documented) problems.push(`${f.name}=null → 200 though the field is not nullable and the document refuses null`);
              } else {
                if (reply.status !== 400 || !reply.body?.[f.name]) problems.push(`${f.name}=null → ${reply.status} ${reply.text.slice(0, 200)}`);
                if (documented) problems.push(`${f.name}=null: the server refuses it, the document allows it`);
              }
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
          });

          // As DRF does (the API's STRICT_WRITE_FIELDS is off), and as the document says.
          it("ignores unknown and read-only keys in a write body", async () => {
            expect(created, "create failed").to.be.an("object");
            const unknown = await req("patch", at(created!.id), { no_such_field: 1 });
            expect(unknown.status, unknown.text).to.equal(200);
            expect(unknown.body).to.not.have.property("no_such_field");
            contract.check("patch", detail, unknown);
            expect(contract.acceptsBody("patch", detail, { no_such_field: 1 }), "the document refuses an unknown key").to.equal(true);
            const optIn = m.fields.filter((f) => f.optIn).map((f) => f.name);
            const before = (await req("get", `${at(created!.id)}${optIn.length ? `?include=${optIn.join(",")}` : ""}`)).body;
            const ignored: Json = {};
            for (const f of m.fields) if (f.readOnly && inVersion(f)) ignored[f.name] = f.kind === "id" ? randomUUID() : "ignored";
            const reply = await req("patch", at(created!.id), ignored);
            expect(reply.status, reply.text).to.equal(200);
            for (const f of m.fields.filter((x) => x.readOnly && inVersion(x) && x.name !== "last_updated")) {
              expect(reply.body[f.name], f.name).to.deep.equal(before[f.name]);
            }
          });

          it("takes related objects as attribute dictionaries matching exactly one object", async () => {
            expect(created, "create failed").to.be.an("object");
            const problems: string[] = [];
            for (const f of writable(m).filter(isLink)) {
              const target = byKey.get(f.target!)!;
              const other = await existing(target);
              // A natural key that is not unique (a device type's slug, per manufacturer) may match several.
              const keyField = target.naturalKey ? target.fields.find((x) => x.name === target.naturalKey) : undefined;
              const key = keyField?.unique && other[keyField.name] ? keyField.name : "id";
              const ok = await call("PATCH", at(created!.id), { headers, body: { [f.name]: { [key]: other[key] } } });
              // The reference resolved, but a rule of the model refuses that object here (a rack of another site).
              const refusedByRule = ok.status === 400 && !/Related object|Multiple objects/.test(JSON.stringify(ok.body?.[f.name] ?? ""));
              if (!refusedByRule && (ok.status !== 200 || (ok.body[f.name]?.id ?? ok.body[f.name]) !== other.id)) problems.push(`${f.name}={${key}: ${other[key]}} → ${ok.status} ${ok.text.slice(0, 200)}`);
              const none = await call("PATCH", at(created!.id), { headers, body: { [f.name]: { [key]: key === "id" ? randomUUID() : "no-such-object" } } });
              if (none.status !== 400 || !none.body?.[f.name]) problems.push(`${f.name}={${key}: <none>} → ${none.status} ${none.text.slice(0, 200)}`);
              else contract.check("patch", detail, none);
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
          });

          it("refuses a duplicate of a unique field with 400 naming it", async () => {
            expect(created, "create failed").to.be.an("object");
            const unique = writable(m).filter((f) => f.kind === "scalar" && f.unique && !f.writeOnly);
            const problems: string[] = [];
            const current = (await req("get", at(created!.id))).body;
            for (const f of unique) {
              if (current[f.name] === null || current[f.name] === "") continue;
              const reply = await call("POST", list, { headers, body: { ...(await payload(m)), [f.name]: current[f.name] } });
              if (reply.status !== 400 || !reply.body?.[f.name]) problems.push(`${f.name}=${JSON.stringify(current[f.name])} → ${reply.status} ${reply.text.slice(0, 200)}`);
              else contract.check("post", list, reply);
            }
            expect(problems, problems.join("\n")).to.deep.equal([]);
          });
        }

        if (m.features.ownedByRequester && ops.has("create")) {
          it("hides the requester's objects from other users", async () => {
            expect(created, "create failed").to.be.an("object");
            const other = await (await startTestServer()).user(`conf-${uniq()}`);
            const seen = await call("GET", at(created!.id), { headers, token: other.key });
            expect(seen.status).to.equal(404);
            const listed = await call("GET", `${list}?id=${created!.id}`, { headers, token: other.key });
            expect(listed.status).to.equal(200);
            expect(listed.body.count).to.equal(0);
          });
        }

        if (ops.has("delete") && ops.has("create")) {
          it("deletes: 204 without a body, then 404", async () => {
            expect(created, "create failed").to.be.an("object");
            const gone = await req("delete", at(created!.id));
            expect(gone.status, gone.text).to.equal(204);
            contract.check("delete", detail, gone);
            const again = await req("get", at(created!.id));
            expect(again.status).to.equal(404);
          });
        }

        if (ops.has("create") && ops.has("update") && ops.has("delete")) {
          it("bulk creates, updates (PUT, PATCH) and deletes, all documented", async () => {
            const bodies = [await payload(m), await payload(m)];
            const made = await req("post", list, bodies);
            expect(made.status, made.text).to.equal(201);
            contract.check("post", list, made);
            expect(made.body).to.have.length(2);
            made.body.forEach((o: Json, i: number) => expectEcho(m, bodies[i], o));
            const ids = made.body.map((o: Json) => o.id);

            const replacements = [await payload(m, false, made.body[0]), await payload(m, false, made.body[1])];
            const put = await req("put", list, ids.map((id: string, i: number) => ({ id, ...replacements[i] })));
            expect(put.status, put.text).to.equal(200);
            contract.check("put", list, put);
            expect(put.body.map((o: Json) => o.id).sort()).to.deep.equal([...ids].sort());

            const patched = await req("patch", list, ids.map((id: string) => ({ id })));
            expect(patched.status, patched.text).to.equal(200);
            contract.check("patch", list, patched);

            const removed = await req("delete", list, ids.map((id: string) => ({ id })));
            expect(removed.status, removed.text).to.equal(204);
            contract.check("delete", list, removed);
            for (const id of ids) expect((await req("get", at(id))).status).to.equal(404);
          });
        }
      });
    }
  });
}

/**
 * The paths of a model's list, detail and actions (or only its list's parameters), with every
 * component they reach, as `version` documents them. A component is named by the order it is
 * first reached in, not by its name: the generator names a shared schema after the first
 * parameter that uses it (a yes/no filter's is `AssignedToInterface` in one version and
 * `ApprovalRequired` in another), and a name alone changes neither what the server does nor
 * what the document accepts.
 */
function documentedAs(api: ApiDescriptor, version: string, m: ModelDescriptor, part: "paths" | "filters"): string {
  const doc = api.openapi[version] as Json;
  const list = `${api.basePath}${m.app}/${m.route}/`;
  const paths = part === "filters"
    ? [[list, doc.paths[list]?.get?.parameters]]
    : Object.keys(doc.paths).filter((p) => p === list || p.startsWith(`${list}{id}/`)).sort().map((p) => [p, doc.paths[p]]);
  const order = new Map<string, number>();
  const reached: unknown[] = [];
  const reach = (ref: string): string => {
    let n = order.get(ref);
    if (n === undefined) {
      order.set(ref, (n = order.size));
      reached[n] = canonical(ref.replace(/^#\//, "").split("/").reduce((at: Json, key) => at?.[key], doc));
    }
    return `#${n}`;
  };
  const canonical = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(canonical);
    if (x === null || typeof x !== "object") return x;
    return Object.fromEntries(Object.entries(x).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? reach(value) : canonical(value)]));
  };
  return JSON.stringify([canonical(paths), reached]);
}

/** One of `of` shares of the walk: every `of`-th model from the `index`-th, in each version. */
export interface Shard { index: number; of: number }

export function walkDrfApis(shard: Shard): void {
  for (const api of apis.filter((a) => a.profile === "drf")) {
    const newest = api.versions.supported.at(-1)!;
    for (const version of api.versions.supported) {
      const differs = (m: ModelDescriptor, part: "paths" | "filters") => version === newest || documentedAs(api, version, m, part) !== documentedAs(api, newest, m, part);
      conformance(api, version, { model: (m) => differs(m, "paths"), filters: (m) => differs(m, "filters") }, shard);
    }
  }
}
