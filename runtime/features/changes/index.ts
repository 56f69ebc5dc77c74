// What every create, update and delete of a change-logged model leaves, within the operation's
// transaction (a rolled-back write leaves nothing): a record in the change log (the api's
// `changeLog` model, fields named as Nautobot's ObjectChange) and the webhook deliveries it
// calls for (webhooks/index.ts), both from one read of the changed rows. A set of rows is one
// read, one insert and one webhook lookup, whatever its size. The object is recorded as the
// API shows it to a request-less serializer (Nautobot's `object_data_v2`: the latest version,
// relative URLs, no opt-in field) and as its model's field values (`object_data`: related
// objects by id, choices by value, tags by name); a webhook's `prechange` is the object as the
// last record before this one showed it, as Nautobot takes it. Records older than CHANGELOG_RETENTION
// days (the api's setting, 90 by default, 0 keeps them) are purged by a periodic task of the
// queue workers, not by writes: looking for them cost every write 4-8 ms at 100,000 records.
// Whether webhooks or job hooks follow from a change is asked with the write's own statements
// (`expecting`); when none may, the record is inserted with the commit (runtime/db/pipeline.ts),
// or, where the rows are those of the write's answer (a bulk's), by the answer's own statement,
// from the objects it renders for the answer (`alongAnswer`, Store.answerJson).
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { storedColumn, type ApiDescriptor, type FieldDescriptor, type ModelDescriptor } from "../../descriptor.js";
import type { ModelIndex } from "../../models.js";
import type { Actor, AnswerRows, ChangeAction, WriteFeature, WriteOperation, Written } from "../../operations/index.js";
import type { Db, ReadOptions, Store } from "../../store.js";
import { isUuid } from "../../query/filters.js";
import { ident, keyedRows, literal } from "../../query/sql.js";
import { bound, positionedAs, prepared } from "../../db/prepared.js";
import { KeptTexts } from "../../kept-texts.js";
import { sendAhead } from "../../db/pipeline.js";
import { lookupsOf, oncePerTransaction } from "../../write/lookups.js";
import { publishOnCommit } from "../../telemetry.js";
import { enqueueWebhooks, webhooksQuery, type ChangeEvent, type FoundWebhook } from "../webhooks/index.js";
import type { Feature, RecordedLookup, TaskSetting } from "../types.js";
import type { PeriodicTask } from "../../queue/worker.js";

/** Nautobot's CHANGELOG_MAX_OBJECT_REPR. */
const MAX_REPR = 200;

/** Characters of the record statements kept in pg's form (`sendFromRows`): some 10-20 KB each, one per model, size of set and presumption. */
const SENT_TEXT_CHARACTERS = 4_000_000;

/** Nautobot's CHANGELOG_MAX_CHANGE_CONTEXT_DETAIL. */
const MAX_DETAIL = 400;
/** Nautobot's default CHANGELOG_RETENTION, in days. */
const RETENTION_DAYS = 90;
/** Expired records one statement of the retention task removes, oldest first: each holds few locks for little time. */
const PURGE_BATCH = 1000;
/** How often a worker looks for expired records: retention is counted in days. */
const PURGE_EVERY_MS = 60_000;

/** How many days `api`'s change log keeps records (0: for ever). */
function retentionOf(api: ApiDescriptor): number {
  const setting = api.settings.CHANGELOG_RETENTION;
  return typeof setting === "number" && setting >= 0 ? setting : RETENTION_DAYS;
}

/**
 * The queue workers' purge of expired records, one batch a statement until none is left. Any
 * number of workers may run it at once: rows another is deleting are skipped, not waited for.
 */
function retentionTask(setting: TaskSetting): Record<string, PeriodicTask> {
  const logged = setting.apis.filter((a) => a.changeLog && retentionOf(a) > 0);
  if (!logged.length) return {};
  let next = 0;
  return {
    "change log retention": async (db) => {
      if (Date.now() < next) return;
      next = Date.now() + PURGE_EVERY_MS;
      for (const api of logged) {
        const { index } = setting.engineOf(api);
        const log = index.model(api.changeLog!);
        const time = index.column(log, "time");
        const expired = () => db(log.table).select("id").whereRaw(`${ident(time)} < now() - make_interval(days => ?)`, [retentionOf(api)])
          .orderBy(time).limit(PURGE_BATCH).forUpdate().skipLocked();
        while ((await db(log.table).whereIn("id", expired()).del()) === PURGE_BATCH);
      }
    },
  };
}

/**
 * The request id as the log's UUID column holds it: a client's own X-Request-Id that is no
 * UUID is recorded as the UUID its text hashes to, the same for every change of the request.
 */
export function requestUuid(requestId: string): string {
  if (isUuid(requestId)) return requestId.toLowerCase();
  const h = createHash("sha1").update(`armature-request:${requestId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A field value of the API's shape as the model stores it: a related object by its id, a choice by its value. */
function stored(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stored);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("value" in o && "label" in o) return o.value;
    if ("id" in o) return o.id;
  }
  return v;
}

/** Nautobot's `serialize_object`: the object's field values, tags by name. */
function modelData(m: ModelDescriptor, shown: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of m.fields) {
    if (!(f.name in shown) || !isData(f)) continue;
    const v = shown[f.name];
    out[f.name] = f.kind === "tags" && Array.isArray(v) ? v.map((t) => (t as { name?: unknown }).name) : stored(v);
  }
  return out;
}

/** Whether a field is one of the model's own values (not its id, a link, a label, a count, a reverse list or a computed value). */
const isData = (f: FieldDescriptor) => !["id", "url", "display", "count", "reverse", "computed", "computedFields", "relationships", "depth"].includes(f.kind);

/** Where an operation's changes go: the change log, the webhooks, or both, as the api names them. */
export function changes(index: ModelIndex, store: Store, lookup?: RecordedLookup): WriteFeature | undefined {
  const { changeLog: logKey, webhooks } = index.api;
  if (!logKey && !webhooks) return undefined;
  const latest = index.api.versions.supported.at(-1) ?? index.api.versions.default;
  // Every row written, whoever wrote it and whatever they may view, as a serializer given no
  // request shows it: without the opt-in fields (computed fields, relationships). Nautobot's
  // OptInFieldsMixin.fields (nautobot/core/api/serializers.py, v1.5.24 lines 59-77) keeps them
  // for a request other than a GET, but reads a missing request's `include` as empty, and
  // serialize_object_v2 and enqueue_webhooks serialize with `{"request": None}`. Nor the
  // excludable computed fields: both take the model's own serializer (get_serializer_for_model,
  // nautobot/utilities/api.py line 22), DeviceSerializer, where a device's API answer is
  // DeviceWithConfigContextSerializer's (nautobot/dcim/api/serializers.py lines 759 and 841).
  const excludable = [...new Set(index.api.models.flatMap((m) => m.fields.filter((f) => f.kind === "computed" && f.excludable).map((f) => f.name)))];
  const recorded: ReadOptions = { shape: "full", version: latest, include: [], exclude: excludable, ctx: { apiUrl: index.api.basePath }, unscoped: true };
  const log = logKey ? changeLog(index, index.model(logKey), lookup, (m, many) => store.jsonbOf(m, recorded, many)) : undefined;
  const watches = (m: ModelDescriptor) => m.features.changeLogged && m.key !== logKey;
  // A write's answer rendered in JavaScript in an older version reads what the record shows
  // in the same statement, for records made in JavaScript (recordRead) to take.
  store.anticipate((m) => (watches(m) ? recorded : undefined));

  // What the records of a change of `m` by `action` lead to besides: the webhooks it calls
  // for, and whether a job hook may. Read once per transaction, with the write's lookups
  // (write/lookups.ts): a write that presumes takes them as they were last read.
  const hooks = webhooksQuery(index.api);
  const followers = (db: Db, m: ModelDescriptor, action: "create" | "update") => oncePerTransaction(db, `change followers:${m.key} ${action}`, async () => {
    const may = lookup?.may(m, action);
    if (!hooks && !may) return { webhooks: [] as FoundWebhook[], jobs: false };
    const [found] = await lookupsOf(db).rows<{ webhooks: FoundWebhook[]; jobs: boolean }>(
      `SELECT ${hooks ? `(SELECT coalesce(json_agg(h), '[]'::json) FROM (${hooks}) h)` : "'[]'::json"} AS webhooks, ${may?.sql ?? "false"} AS jobs`,
      [...(hooks ? [[m.key], [action]] : []), ...(may?.bindings ?? [])],
    );
    return found;
  });

  async function record(op: WriteOperation, m: ModelDescriptor, rows: Written, action: ChangeAction): Promise<void> {
    const db = op.trx;
    if (log && action !== "delete" && await log.sendFromRows(db, m, rows, action, await followers(db, m, action))) {
      publishOnCommit(db, "changes.recorded", { api: index.api.name, action, count: rows.length });
      return;
    }
    await recordRead(op, m, rows, action);
  }

  /** Records the change of `rows` from the objects read into JavaScript, and calls their webhooks. */
  async function recordRead(op: WriteOperation, m: ModelDescriptor, rows: Written, action: ChangeAction): Promise<void> {
    const db = op.trx;
    const fetched = await store.fetch(op, m, [...new Set(rows.map((r) => r.id))], recorded);
    const byId = new Map(fetched.map((o) => [String(o.id), o]));
    // Recorded in the order written, each by its writer (a batch serves many requests).
    const changes = rows.flatMap(({ id, actor }) => {
      const object = byId.get(String(id));
      return object ? [{ object, actor }] : [];
    });
    if (!changes.length) return;
    // Where no job hook may follow and no webhook needs the last record before this one, the
    // records go with the commit; the webhooks, when any, were found with the write.
    const follows = log && action !== "delete" ? await followers(db, m, action) : undefined;
    const quiet = follows && !follows.jobs && (action === "create" || !follows.webhooks.length);
    if (quiet) await log!.send(db, m, changes, action);
    const { before, webhooks } = quiet ? { before: new Map<string, Record<string, unknown>>(), webhooks: follows.webhooks }
      : log ? await log.write(db, m, changes, action) : { before: new Map<string, Record<string, unknown>>(), webhooks: undefined };
    if (log) publishOnCommit(db, "changes.recorded", { api: index.api.name, action, count: changes.length });
    const time = new Date();
    await enqueueWebhooks(db, index.api, changes.map(({ object: o, actor }): ChangeEvent => {
      const prechange = action === "create" ? null : before.get(String(o.id)) ?? null;
      return {
        action, model: m.key, objectId: String(o.id), time, username: actor.username ?? "", requestId: requestUuid(actor.requestId),
        data: o, prechange, postchange: action === "delete" ? null : o,
      };
    }), webhooks);
  }

  return {
    watches,
    // Creates and updates are recorded together at the operation's end: one read and one
    // insert for every row of a model, however many requests a batch serves.
    savedAtEnd: (op, m, action, rows) => record(op, m, rows, action),
    expecting: (op, m, action) => {
      // Failures surface where the end awaits it.
      if (log) void followers(op.trx, m, action).catch(() => undefined);
    },
    deleting: (op, m, ids) => record(op, m, ids.map((id) => ({ id, actor: op.actor })), "delete"),
    alongAnswer: async (op, m, action, rows) => {
      const statement = log?.recordsAlong(m, rows, action, await followers(op.trx, m, action));
      return statement && {
        reads: recorded,
        statement,
        ran: () => publishOnCommit(op.trx, "changes.recorded", { api: index.api.name, action, count: rows.length }),
      };
    },
  };
}

/** The object a change of `m` is also recorded against (ModelSpec.changeLogRelated), as `object` shows it. */
function relatedOf(m: ModelDescriptor, object: Record<string, unknown>): { type: string; id: string } | null {
  const f = m.fields.find((x) => x.name === m.changeLogRelated);
  if (!f) return null;
  const idOf = (v: unknown) => (v && typeof v === "object" ? (v as { id?: unknown }).id : v);
  if (f.kind === "fk" || f.kind === "treeParent") {
    const id = idOf(object[f.name]);
    return typeof id === "string" ? { type: f.target, id } : null;
  }
  if (f.kind === "generic") {
    const shown = (column: string) => m.fields.find((x) => "column" in x && x.column === column)?.name;
    const type = object[shown(f.typeColumn) ?? ""];
    const id = object[shown(f.idColumn) ?? ""];
    return typeof type === "string" && typeof id === "string" ? { type, id } : null;
  }
  return null;
}

/** SQL of the object a change of `m` is also recorded against (`relatedOf`), from the object `v` (jsonb) as recorded: its type and its id. */
function relatedSql(m: ModelDescriptor, v: string): { type: string; id: string } {
  const none = { type: "NULL", id: "NULL" };
  const f = m.fields.find((x) => x.name === m.changeLogRelated);
  const text = (name: string) => `CASE WHEN jsonb_typeof(${v} -> ${literal(name)}) = 'string' THEN ${v} ->> ${literal(name)} END`;
  if (f && (f.kind === "fk" || f.kind === "treeParent")) {
    const value = `${v} -> ${literal(f.name)}`;
    const id = `(CASE jsonb_typeof(${value}) WHEN 'object' THEN CASE WHEN jsonb_typeof(${value} -> 'id') = 'string' THEN ${value} ->> 'id' END WHEN 'string' THEN ${value} #>> '{}' END)`;
    return { type: `CASE WHEN ${id} IS NOT NULL THEN ${literal(f.target)} END`, id };
  }
  if (f?.kind === "generic") {
    const shown = (column: string) => m.fields.find((x) => "column" in x && x.column === column)?.name;
    const [typeField, idField] = [shown(f.typeColumn), shown(f.idColumn)];
    if (!typeField || !idField) return none;
    const both = `${text(typeField)} IS NOT NULL AND ${text(idField)} IS NOT NULL`;
    return { type: `CASE WHEN ${both} THEN ${text(typeField)} END`, id: `CASE WHEN ${both} THEN ${text(idField)} END` };
  }
  return none;
}

/**
 * SQL of `modelData` of the object `v` (jsonb) as recorded: its own values as stored, tags by
 * name. Each field's value is taken by its key, and the keys `v` lacks are taken out again
 * (`modelData` leaves out what the object does not show): walking `v`'s pairs with jsonb_each
 * and gathering them again with jsonb_object_agg, as this did, cost a bulk of 1,000 records
 * 30 ms of its 135. A value is reduced (`stored`) only where its kind may show an object or a
 * list: the other scalars show as they are stored.
 */
function modelDataSql(m: ModelDescriptor, v: string): string {
  const data = m.fields.filter(isData);
  const pairs = data.map((f) => {
    const x = `${v} -> ${literal(f.name)}`;
    // armature_stored inline for what is not a list: a call of the PL/pgSQL function for each
    // value of each record cost a bulk of 1,000 records 60 ms.
    const stored = `CASE jsonb_typeof(${x}) WHEN 'array' THEN armature_stored(${x}) ` +
      `WHEN 'object' THEN CASE WHEN jsonb_exists(${x}, 'value') AND jsonb_exists(${x}, 'label') THEN ${x} -> 'value' WHEN jsonb_exists(${x}, 'id') THEN ${x} -> 'id' ELSE ${x} END ` +
      `ELSE ${x} END`;
    const tagNames = () => `(SELECT coalesce(jsonb_agg(t.x -> 'name' ORDER BY t.n), '[]'::jsonb) FROM jsonb_array_elements(${x}) WITH ORDINALITY AS t(x, n))`;
    const value = f.kind === "scalar" && f.type !== "json" ? x
      : f.kind === "tags" ? `CASE WHEN jsonb_typeof(${x}) = 'array' THEN ${tagNames()} ELSE ${stored} END`
      : stored;
    return `${literal(f.name)}, ${value}`;
  });
  if (!pairs.length) return "'{}'::jsonb";
  const absent = data.map((f) => `CASE WHEN jsonb_exists(${v}, ${literal(f.name)}) THEN NULL ELSE ${literal(f.name)} END`);
  // jsonb_build_object takes at most 100 arguments: 50 fields a call, joined.
  const objects: string[] = [];
  for (let i = 0; i < pairs.length; i += 50) objects.push(`jsonb_build_object(${pairs.slice(i, i + 50).join(", ")})`);
  return `((${objects.join(" || ")}) - array_remove(ARRAY[${absent.join(", ")}]::text[], NULL))`;
}

/**
 * The change log's writer: `write` records the objects' change and, from the same statement,
 * gives what each object's last record before it showed and the webhooks the change calls for,
 * and acts on what `lookup` (another feature's, over the records written) finds.
 */
function changeLog(index: ModelIndex, log: ModelDescriptor, lookup: RecordedLookup | undefined, shownOf: (m: ModelDescriptor, many: boolean) => ReturnType<Store["jsonbOf"]>) {
  const column = (name: string): string => {
    const f = log.fields.find((x) => x.name === name);
    const c = f && storedColumn(f);
    if (!c) throw new Error(`changeLog model ${log.key}: no stored field "${name}"`);
    return c;
  };
  const cols = {
    time: column("time"), user: column("user"), userName: column("user_name"), requestId: column("request_id"), action: column("action"),
    type: column("changed_object_type"), id: column("changed_object_id"), repr: column("object_repr"), data: column("object_data"),
    dataV2: column("object_data_v2"), context: column("change_context"), detail: column("change_context_detail"),
    relatedType: column("related_object_type"), relatedId: column("related_object_id"),
  };
  const table = ident(log.table);
  // The statement's snapshot is from before its own insert: the last records are the earlier ones.
  const last = `last AS (SELECT DISTINCT ON (${ident(cols.id)}) ${ident(cols.id)}::text AS id, ${ident(cols.dataV2)} AS data FROM ${table} ` +
    `WHERE ${ident(cols.type)} = ? AND ${ident(cols.id)} = ANY(?) ORDER BY ${ident(cols.id)}, ${ident(cols.time)} DESC)`;
  const hooks = webhooksQuery(index.api);
  const relatedColumns = (m: ModelDescriptor, o: Record<string, unknown>) => {
    const related = relatedOf(m, o);
    return { [cols.relatedType]: related?.type ?? null, [cols.relatedId]: related?.id ?? null };
  };

  type Change = { object: Record<string, unknown>; actor: Actor };
  type Found = { before: Map<string, Record<string, unknown>>; webhooks?: FoundWebhook[] };

  /**
   * Records the objects' change in one statement, whatever their number: the records are bound
   * as one jsonb array that the log table's own row type reads (jsonb_populate_recordset), so
   * its text is the same for every write of a model (planned once per connection) and binds
   * the same few values, not one per column and record. 1,000 records took 110 ms bound value
   * by value (building and binding included), 80 ms as a json array, whose JSON columns
   * PostgreSQL parses a second time, and 65 ms as jsonb.
   */
  function recordsOf(m: ModelDescriptor, changes: Change[], action: ChangeAction) {
    return changes.map(({ object: o, actor }) => ({
      [cols.user]: actor.userId,
      [cols.userName]: actor.username ?? "Undefined",
      [cols.requestId]: requestUuid(actor.requestId),
      [cols.action]: action,
      [cols.type]: m.key,
      [cols.id]: o.id,
      [cols.repr]: String(o.display ?? o.id).slice(0, MAX_REPR),
      [cols.data]: modelData(m, o),
      [cols.dataV2]: o,
      [cols.context]: actor.context,
      [cols.detail]: actor.contextDetail.slice(0, MAX_DETAIL),
      ...relatedColumns(m, o),
    }));
  }

  /** The insert of `records` (bound as one jsonb array). */
  function insertOf(records: Array<Record<string, unknown>>): string {
    const given = Object.keys(records[0]).map(ident);
    // Each record its own instant, in the order written (records of one statement may share a
    // microsecond): a request's changes sort as they were made.
    return `INSERT INTO ${table} (${ident(cols.time)}, ${given.join(", ")}) ` +
      `SELECT clock_timestamp() + make_interval(secs => (r.ordinality - 1) * 0.000001), ${given.map((c) => `r.${c}`).join(", ")} ` +
      `FROM jsonb_populate_recordset(NULL::${table}, ?::jsonb) WITH ORDINALITY AS r ORDER BY r.ordinality`;
  }

  /**
   * Records the objects' change where nothing follows from the records (no job hook may look
   * at them, no webhook needs the last record before them): the insert alone, sent with the
   * commit (runtime/db/pipeline.ts).
   */
  function send(db: Db, m: ModelDescriptor, changes: Change[], action: ChangeAction): Promise<void> {
    const records = recordsOf(m, changes, action);
    return sendAhead(db, prepared(db.raw(insertOf(records), [JSON.stringify(records)])), { withCommit: true });
  }

  async function write(db: Db, m: ModelDescriptor, changes: Change[], action: ChangeAction): Promise<Found> {
    const records = recordsOf(m, changes, action);
    const insert = `${insertOf(records)} RETURNING id, ${[cols.id, cols.user, cols.context, cols.time].map(ident).join(", ")}`;
    const also = lookup?.query(m, action, "i");
    // A created object has no record before this one (its webhooks' prechange is null): no
    // probe of the log for each of them.
    const earlier = action !== "create";
    const ctes = [`inserted AS (${insert})`, ...(earlier ? [last] : []), ...(hooks ? [`hooks AS (${hooks})`] : []), ...(also ? [`also AS (${also.sql})`] : [])];
    const bindings = [JSON.stringify(records), ...(earlier ? [m.key, changes.map((c) => c.object.id)] : []), ...(hooks ? [[m.key], [action]] : []), ...(also?.bindings ?? [])];
    // The same text for every write of one model and action: planned once per connection.
    const { rows: [found] } = await prepared(db.raw(
      `WITH ${ctes.join(", ")} SELECT ${earlier ? "(SELECT json_agg(l) FROM last l)" : "NULL"} AS before` +
        (hooks ? ", (SELECT coalesce(json_agg(h), '[]'::json) FROM hooks h) AS webhooks" : "") +
        (also ? ", (SELECT coalesce(json_agg(a), '[]'::json) FROM also a) AS also" : ""),
      bindings as Knex.RawBinding[],
    ));
    if (also) await lookup!.found(db, found.also as Array<Record<string, unknown>>);
    const lastShown = (found.before ?? []) as Array<{ id: string; data: Record<string, unknown> | null }>;
    return {
      before: new Map(lastShown.filter((r) => r.data).map((r) => [r.id, r.data!])),
      ...(hooks ? { webhooks: found.webhooks as FoundWebhook[] } : {}),
    };
  }

  /**
   * Records the change of `rows` (all by one actor) in SQL, the objects read by the statement
   * that inserts their records, as `recordsOf` makes them from the objects read first: no
   * object is read into JavaScript, rendered and bound again (a bulk of 1,000 prefixes, its
   * answer from `Store.answerJson`: Node's CPU 320 → 145 ms, PostgreSQL's 330 → 410, in about
   * the same time), sent with the commit. Gives false, sending nothing, where it cannot be done
   * so: something follows from the records, the rows are of several actors or have integer
   * keys, or their plan is rendered in JavaScript or rests on facts about the data (a
   * request-less object shows no opt-in field, the only ones whose shape does).
   */
  async function sendFromRows(db: Db, m: ModelDescriptor, rows: Written, action: "create" | "update", follows: { webhooks: FoundWebhook[]; jobs: boolean }): Promise<boolean> {
    const actor = recordedInSql(m, rows, follows);
    const shown = shownOf(m, rows.length > 1);
    if (!actor || !shown || shown.assumes) return false;
    const bindings = [...actorValues(m, actor, action), rows.map((r) => String(r.id)), ...shown.bindings] as Knex.RawBinding[];
    const source = `${keyedRows("unnest(?::uuid[])", m.table, "t0")} ${shown.joins}`;
    await sendAhead(db, sentStatement(db, `${m.key}|${rows.length > 1}`, `${shown.sql}\u0000${shown.joins}`, bindings,
      () => recordsStatement(m, { rows: source, id: "t0.id", n: "t0.armature_n", object: shown })), { withCommit: true });
    return true;
  }

  /** The values `recordsStatement` binds before its rows': the actor's and the change's. */
  const actorValues = (m: ModelDescriptor, actor: Actor, action: ChangeAction): unknown[] =>
    [actor.userId, actor.username ?? "Undefined", requestUuid(actor.requestId), action, m.key, actor.context, actor.contextDetail.slice(0, MAX_DETAIL)];

  /**
   * The records of the change of `rows` made from the objects of the statement of the write's
   * answer (Store.answerJson): each object's text made once for both. Undefined where it cannot
   * be done so (as `sendFromRows`, but for the read, which the store checks).
   */
  function recordsAlong(m: ModelDescriptor, rows: Written, action: "create" | "update", follows: { webhooks: FoundWebhook[]; jobs: boolean }):
    ((source: AnswerRows) => { sql: string; bindings: unknown[] }) | undefined {
    const actor = recordedInSql(m, rows, follows);
    return actor && ((source) => ({ sql: recordsStatement(m, source), bindings: [...actorValues(m, actor, action), ...source.object.bindings] }));
  }

  /**
   * The one actor of `rows`, where their records can be made in SQL: nothing follows from them
   * (no job hook may look at them, no webhook is called), and their keys are UUIDs.
   */
  function recordedInSql(m: ModelDescriptor, rows: Written, follows: { webhooks: FoundWebhook[]; jobs: boolean }): Actor | undefined {
    const actor = rows[0]?.actor;
    return !actor || follows.jobs || follows.webhooks.length || index.integerKeys(m) || rows.some((r) => r.actor !== actor) ? undefined : actor;
  }

  /**
   * The statement that records the change of `source`'s rows of `m`, its values bound in
   * `actorValues`' order and then those of `source` (its rows' and its objects').
   */
  function recordsStatement(m: ModelDescriptor, source: AnswerRows): string {
    const related = relatedSql(m, "o.v");
    const given: Array<[string, string]> = [
      [cols.time, `clock_timestamp() + make_interval(secs => (${source.n} - 1) * 0.000001)`], [cols.user, "?::uuid"], [cols.userName, "?"], [cols.requestId, "?::uuid"],
      [cols.action, "?"], [cols.type, "?"], [cols.id, source.id], [cols.repr, `left(coalesce(o.v ->> 'display', ${source.id}::text), ${MAX_REPR})`],
      [cols.data, modelDataSql(m, "o.v")], [cols.dataV2, "o.v"], [cols.context, "?"], [cols.detail, "?"], [cols.relatedType, related.type], [cols.relatedId, `(${related.id})::uuid`],
    ];
    return `INSERT INTO ${table} (${given.map(([c]) => ident(c)).join(", ")}) SELECT ${given.map(([, e]) => e).join(", ")} ` +
      `FROM ${source.rows} CROSS JOIN LATERAL (SELECT ${source.object.sql} AS v OFFSET 0) o ORDER BY ${source.n}`;
  }

  /**
   * Record statements in pg's form, by model and size of set, with what they were
   * built from. A create built its 10-20 KB of text afresh, and knex scanned it for its values
   * and pg's names hashed it, every time: some 0.2 ms of a create's 3 ms of the server's CPU.
   */
  const sentTexts = new KeptTexts<{ from: string; text: string | null }>(SENT_TEXT_CHARACTERS, (t) => t.from.length + (t.text?.length ?? 0));

  /** The statement of `build()`'s text bound to `bindings`, its text numbered for pg once for `from` (what it was built from). */
  function sentStatement(db: Db, key: string, from: string, bindings: Knex.RawBinding[], build: () => string): Knex.Raw {
    const kept = sentTexts.get(key);
    if (kept?.from === from && kept.text) return bound(db, kept.text, bindings, "generic");
    const statement = prepared(db.raw(build(), bindings), "generic");
    if (kept?.from !== from) sentTexts.set(key, { from, text: positionedAs(statement, bindings) });
    return statement;
  }

  return { write, send, sendFromRows, recordsAlong };
}

export const feature = {
  name: "change log",
  write: ({ index, store, services }) => changes(index, store, services.recorded),
  periodic: retentionTask,
} satisfies Feature;
