// The engine with a model's hooks, on an embedded database and a descriptor made here: a
// computed field's SQL comes from the hook module and is part of the one read statement;
// beforeSave may change values and its Refusal is a field-keyed 400; afterSave and the
// delete hooks run inside the caller's transaction, so a failing one rolls everything back.
import { expect } from "chai";
import type { ApiDescriptor, FieldDescriptor, ModelDescriptor, ModelHooks } from "../../runtime/descriptor.js";
import { openDatabase, type Database } from "../../runtime/db/connect.js";
import { ValidationError } from "../../runtime/errors.js";
import { Refusal } from "../../runtime/hooks.js";
import { ModelIndex } from "../../runtime/models.js";
import { Store } from "../../runtime/store.js";

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
const api: ApiDescriptor = {
  name: "hooked", title: "Hooked", description: "", profile: "drf", basePath: "/api/", apps: ["core"], rootLinks: [],
  versions: { default: "1", supported: ["1"] }, settings: {}, models: [model], migrations: [],
  openapi: { 1: { openapi: "3.1.0", components: { schemas: { WritableThingRequest: write, PatchedWritableThingRequest: write } } } },
};
const read = { shape: "full" as const, version: "1", ctx: { apiUrl: "http://x/api/" } };

describe("unit: model hooks in the engine", () => {
  let db: Database;
  const store = new Store(new ModelIndex(api));
  before(async () => {
    db = await openDatabase({ dataDir: "memory://" });
    await db.knex.raw(`CREATE TABLE core_thing (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name varchar(20) NOT NULL DEFAULT '')`);
  });
  after(() => db.close());

  it("a computed field is read by the hook's SQL in the one statement", async () => {
    const id = await store.create(db.knex, model, { name: "  widget " }, { version: "1", partial: false });
    const queries: string[] = [];
    db.knex.on("query", (q: { sql: string }) => queries.push(q.sql));
    const page = await store.list(db.knex, model, { apply: () => undefined, checks: [], order: [], valueSensitive: false }, { limit: 10, offset: 0 }, read);
    db.knex.removeAllListeners("query");
    expect(page.results).to.deep.equal([{ id, name: "widget", name_length: 6 }]);
    expect(queries).to.have.length(1);
    expect(queries[0]).to.include('length(t0."name")');
    expect(calls).to.include(`saved ${id}`);
  });

  it("a Refusal from beforeSave is a field-keyed validation error and nothing is written", async () => {
    const before = await db.knex("core_thing").count({ n: "*" }).first();
    let error: unknown;
    try { await store.create(db.knex, model, { name: "forbidden" }, { version: "1", partial: false }); } catch (err) { error = err; }
    expect(error).to.be.instanceOf(ValidationError);
    expect((error as ValidationError).errors).to.deep.equal({ name: ["Not this name."] });
    expect(await db.knex("core_thing").count({ n: "*" }).first()).to.deep.equal(before);
  });

  it("delete hooks run in the caller's transaction: a failing afterDelete undoes the delete", async () => {
    const a = await store.create(db.knex, model, { name: "a" }, { version: "1", partial: false });
    const b = await store.create(db.knex, model, { name: "b" }, { version: "1", partial: false });
    let error: unknown;
    try { await db.knex.transaction((trx) => store.remove(trx, model, [a, b])); } catch (err) { error = err; }
    expect((error as Error).message).to.equal("after-delete failure");
    expect(calls).to.include("deleting 2");
    expect(Number((await db.knex("core_thing").whereIn("id", [a, b]).count({ n: "*" }).first())?.n)).to.equal(2);
  });
});
