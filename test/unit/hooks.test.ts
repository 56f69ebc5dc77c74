// The engine with a model's hooks, on an embedded database and descriptors made here: a
// computed field's SQL comes from the hook module and is part of the one read statement;
// beforeSave may change values and its Refusal is a field-keyed 400; afterSave and the
// delete hooks run inside the caller's transaction, so a failing one rolls everything back.
// Hooks meet rows by field name (a link's field, not its column), JSON parsed: the stored
// row before the write, the values it stores, the row after it and the fields it changes.
import { expect } from "chai";
import type { ApiDescriptor, FieldDescriptor, FieldRow, ModelDescriptor, ModelHooks, SaveEventBase } from "../../runtime/descriptor.js";
import type { Database } from "../../runtime/db/connect.js";
import { freshEmbeddedDatabase } from "../support/fresh-db.js";
import { ValidationError } from "../../runtime/errors.js";
import { Refusal, type SaveEvent } from "../../runtime/hooks.js";
import { ModelIndex } from "../../runtime/models.js";
import { Store } from "../../runtime/store.js";
import { Operations, type WriteOperation } from "../../runtime/operations/index.js";

const common = { required: false, nullable: false, readOnly: false };
const fields: FieldDescriptor[] = [
  { ...common, name: "id", label: "ID", kind: "id", readOnly: true },
  { ...common, name: "name", label: "Name", kind: "scalar", type: "string", column: "name", maxLength: 20 },
  { ...common, name: "name_length", label: "Name length", kind: "computed", readOnly: true, schema: { type: "integer" } },
];
const calls: string[] = [];
const hooks: ModelHooks = {
  beforeSave: ({ values }) => {
    if (values.name === "forbidden") throw new Refusal({ name: "Not this name." });
    if (typeof values.name === "string") values.name = values.name.trim();
  },
  afterSave: ({ id }) => { calls.push(`saved ${id}`); },
  beforeDelete: ({ ids }) => { calls.push(`deleting ${ids.length}`); },
  afterDelete: ({ ids }) => { if (ids.length > 1) throw new Error("after-delete failure"); },
  readValues: { name_length: ({ alias }) => `length(${alias}."name")` },
};
const model: ModelDescriptor = {
  key: "core.thing", name: "Thing", app: "core", route: "things", table: "core_thing", verboseName: "Thing", sentenceName: "thing", description: "",
  display: [{ path: ["name"] }], ordering: [{ field: "name", desc: false }],
  features: { tags: false, customFields: false, changeLogged: false, tree: false, ownedByRequester: false },
  fields, nested: ["id", "name"], brief: ["id", "name"], filters: [], uniqueTogether: [], operations: ["list", "create", "delete"],
  components: { full: "Thing", nested: "NestedThing", brief: "BriefThing", write: "WritableThingRequest", patch: "PatchedWritableThingRequest", list: "PaginatedThingList" },
  hookModule: "core/thing", hooks,
};
const write = { type: "object", properties: { name: { type: "string", maxLength: 20 } }, additionalProperties: false };

/** What the part's hooks were given, by hook. */
const seen: { beforeSave?: SaveEvent; afterSave?: SaveEvent; deleting?: unknown; deleted?: unknown } = {};
const copy = (e: SaveEventBase) => structuredClone({ values: e.values, before: e.before, after: e.after, changed: [...e.changed].sort() }) as unknown as SaveEvent;
const partHooks: ModelHooks = {
  beforeSave: (e) => {
    seen.beforeSave = copy(e);
    if (e.values.name === "relabel") e.values.data = { relabelled: true };
  },
  afterSave: (e) => { seen.afterSave = copy(e); },
  beforeDelete: async (e) => {
    const rows = await e.rows();
    seen.deleting = structuredClone({ ids: e.ids, rows, once: rows === (await e.rows()) });
  },
  afterDelete: (e) => { seen.deleted = [...e.ids]; },
};
const part: ModelDescriptor = {
  ...model, key: "core.part", name: "Part", route: "parts", table: "core_part", verboseName: "Part", sentenceName: "part",
  fields: [
    fields[0], fields[1],
    { ...common, name: "thing", label: "Thing", kind: "fk", column: "thing_id", target: "core.thing", onDelete: "cascade" },
    { ...common, name: "data", label: "Data", kind: "scalar", type: "json", column: "data_json", nullable: true },
    { ...common, name: "ports", label: "Ports", kind: "list", column: "ports", items: { type: "integer" } },
  ],
  components: { ...model.components, write: "WritablePartRequest", patch: "PatchedWritablePartRequest" },
  hookModule: "core/part", hooks: partHooks,
};
const writePart = { type: "object", properties: { name: { type: "string" }, thing: { type: "string" }, data: {}, ports: {} }, additionalProperties: false };
const api: ApiDescriptor = {
  name: "hooked", title: "Hooked", description: "", profile: "drf", basePath: "/api/", apps: ["core"], rootLinks: [],
  versions: { default: "1", supported: ["1"] }, settings: {}, models: [model, part], migrations: [], appMigrations: [], openapiFiles: {},
  openapi: {
    1: {
      openapi: "3.1.0",
      components: { schemas: { WritableThingRequest: write, PatchedWritableThingRequest: write, WritablePartRequest: writePart, PatchedWritablePartRequest: writePart } },
    },
  },
};
const read = { shape: "full" as const, version: "1", ctx: { apiUrl: "http://x/api/" } };

describe("unit: model hooks in the engine", () => {
  let db: Database;
  const store = new Store(new ModelIndex(api));
  /** `work` as a system operation's, as every write runs. */
  const writing = <T>(work: (op: WriteOperation) => Promise<T>) => new Operations(db.knex).run(Operations.system("test"), work);
  before(async () => {
    db = await freshEmbeddedDatabase();
    await db.knex.raw(`CREATE TABLE core_thing (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name varchar(20) NOT NULL DEFAULT '')`);
    await db.knex.raw(`CREATE TABLE core_part (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL, ` +
      `thing_id uuid NOT NULL REFERENCES core_thing ON DELETE CASCADE, data_json jsonb, ports jsonb NOT NULL DEFAULT '[]')`);
  });
  after(() => db.close());

  it("a computed field is read by the hook's SQL in the one statement", async () => {
    const id = await writing((op) => store.create(op, model, { name: "  widget " }, { version: "1", partial: false }));
    const queries: string[] = [];
    db.knex.on("query", (q: { sql: string }) => queries.push(q.sql));
    const page = await store.list(await new Operations(db.knex).read(Operations.system("test")), model, { apply: () => undefined, checks: [], order: [], valueSensitive: false }, { limit: 10, offset: 0 }, read);
    db.knex.removeAllListeners("query");
    expect(page.results).to.deep.equal([{ id, name: "widget", name_length: 6 }]);
    expect(queries).to.have.length(1);
    expect(queries[0]).to.include('length(t0."name")');
    expect(calls).to.include(`saved ${id}`);
  });

  it("a Refusal from beforeSave is a field-keyed validation error and nothing is written", async () => {
    const before = await db.knex("core_thing").count({ n: "*" }).first();
    let error: unknown;
    try { await writing((op) => store.create(op, model, { name: "forbidden" }, { version: "1", partial: false })); } catch (err) { error = err; }
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as ValidationError).errors).to.deep.equal({ name: ["Not this name."] });
    expect(await db.knex("core_thing").count({ n: "*" }).first()).to.deep.equal(before);
  });

  it("delete hooks run in the caller's transaction: a failing afterDelete undoes the delete", async () => {
    const a = await writing((op) => store.create(op, model, { name: "a" }, { version: "1", partial: false }));
    const b = await writing((op) => store.create(op, model, { name: "b" }, { version: "1", partial: false }));
    let error: unknown;
    try { await writing((op) => store.remove(op, model, [a, b])); } catch (err) { error = err; }
    expect((error as Error).message).to.equal("after-delete failure");
    expect(calls).to.include("deleting 2");
    expect(Number((await db.knex("core_thing").whereIn("id", [a, b]).count({ n: "*" }).first())?.n)).to.equal(2);
  });

  describe("the rows a hook is given", () => {
    const opts = { version: "1", partial: false };
    let thing: string;
    before(async () => { thing = await writing((op) => store.create(op, model, { name: "holder" }, opts)); });

    it("on create: the values by field name, JSON parsed, each changed, and no stored row", async () => {
      await writing((op) => store.create(op, part, { name: "p1", thing, data: { b: 1, a: [2] }, ports: [22, 80] }, opts));
      const values = { name: "p1", thing, data: { b: 1, a: [2] }, ports: [22, 80] };
      expect(seen.beforeSave).to.deep.equal({ values, before: null, after: values, changed: ["data", "name", "ports", "thing"] });
    });

    it("on update: the stored row before, the row after, and only the fields whose value changes", async () => {
      const id = await writing((op) => store.create(op, part, { name: "p2", thing, data: { b: 1 }, ports: [22] }, opts));
      await writing((op) => store.update(op, part, id, { name: "p2", data: { b: 1 }, ports: [22, 443] }, { ...opts, partial: true }));
      const before = { id, name: "p2", thing, data: { b: 1 }, ports: [22] };
      expect(seen.beforeSave).to.deep.equal({
        values: { name: "p2", data: { b: 1 }, ports: [22, 443] }, before, after: { ...before, ports: [22, 443] }, changed: ["ports"],
      });
    });

    it("a value a hook changes is stored, and afterSave sees it in the row after", async () => {
      const id = await writing((op) => store.create(op, part, { name: "relabel", thing, data: { b: 1 } }, opts));
      expect((await db.knex("core_part").where("id", id).first()).data_json).to.deep.equal({ relabelled: true });
      expect((seen.afterSave as SaveEvent<FieldRow>).after).to.deep.equal({ name: "relabel", thing, data: { relabelled: true } });
    });

    it("a JSON value the hooks leave alone is stored as it was written, every digit", async () => {
      const id = await writing((op) => store.create(op, part, { name: "big", thing, ports: ["9007199254740993"] }, opts));
      expect((await db.knex("core_part").where("id", id).first(db.knex.raw("ports::text AS ports"))).ports).to.equal("[9007199254740993]");
    });

    it("beforeDelete reads the rows being deleted, once, by field name, in the order asked", async () => {
      const a = await writing((op) => store.create(op, part, { name: "da", thing, ports: [1] }, opts));
      const b = await writing((op) => store.create(op, part, { name: "db", thing, ports: [2] }, opts));
      await writing((op) => store.remove(op, part, [b, a]));
      const rows = [{ id: b, name: "db", thing, data: null, ports: [2] }, { id: a, name: "da", thing, data: null, ports: [1] }];
      expect(seen.deleting).to.deep.equal({ ids: [b, a], rows, once: true });
      expect(seen.deleted).to.deep.equal([b, a]);
    });
  });

  describe("a write outside an operation", () => {
    it("does not compile: every store write takes the operation, never a bare connection", () => {
      const opts = { version: "1", partial: false };
      // Never called: the checks are the compiler's (`tsc --noEmit` runs over the tests). Were a
      // write to take a connection again, its directive would be unused, and that an error.
      const refused = [
        // @ts-expect-error a connection is not an operation
        () => store.create(db.knex, model, { name: "stray" }, opts),
        // @ts-expect-error a transaction is not an operation either
        () => db.knex.transaction((trx) => store.createMany(trx, model, [{ name: "stray" }], opts)),
        // @ts-expect-error
        () => store.draft(db.knex, model, null),
        // @ts-expect-error
        () => store.update(db.knex, model, "x", {}, opts),
        // @ts-expect-error
        () => store.remove(db.knex, model, ["x"]),
        // @ts-expect-error
        () => store.detach(db.knex, model, ["x"]),
        // @ts-expect-error a read's operation cannot write
        () => store.create(new Operations(db.knex).read(Operations.system("test")), model, { name: "stray" }, opts),
      ];
      expect(refused).to.have.length(7);
    });
  });
});
