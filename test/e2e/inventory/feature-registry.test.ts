// The features' registry (runtime/features/index.ts) as the engine and the profiles meet it:
// the kinds table whole once it has loaded, the read scope object permissions give the engine
// (the rows a user may view, from the operation's actor), and the routes and OPTIONS additions
// the features declare for the profiles.
import { expect } from "chai";
import { apis } from "../../../generated/server.js";
import { Engine } from "../../../runtime/engine.js";
import { featureRoutes, optionsContributions } from "../../../runtime/features/index.js";
import { kindOf } from "../../../runtime/kinds/index.js";
import { ModelIndex } from "../../../runtime/models.js";
import type { Actor } from "../../../runtime/operations/index.js";
import { startTestServer } from "../../support/server.js";
import { post } from "../../support/http.js";
import { uniq } from "./support.js";

const inventory = apis.find((a) => a.name === "inventory")!;

describe("inventory e2e: the features' registry", () => {
  it("every field kind of every api has its runtime module, the features' kinds included", () => {
    const fields = apis.flatMap((a) => a.models.flatMap((m) => m.fields));
    expect(fields.filter((f) => !kindOf(f)).map((f) => f.kind)).to.deep.equal([]);
    expect(new Set(fields.map((f) => f.kind))).to.include.keys("tags", "customFields", "relationships");
  });

  it("object permissions narrow the engine's reads to the rows the actor may view", async () => {
    const server = await startTestServer();
    const engine = new Engine(inventory, server.db);
    const sites = engine.index.model("dcim.site");
    const tag = uniq("scope").toLowerCase();
    for (const name of ["a1", "b1"]) expect((await post("/api/dcim/sites/", { name: `${tag}-${name}`, status: "active" })).status).to.equal(201);
    const user = await server.user(uniq(`${tag}-u`), { grants: [{ object_types: ["dcim.site"], actions: ["view"], constraints: { slug__startswith: `${tag}-a` } }] });
    const actorOf = async (superuser: boolean): Promise<Actor> => ({
      userId: user.id, username: null, requestId: tag, context: "test", contextDetail: "read scope",
      grants: await engine.permissions!.grants(server.db, user.id, superuser),
    });
    const visible = async (actor: Actor, m = sites) => {
      const scope = engine.scope(actor, m, "t0");
      const q = server.db(`${m.table} as t0`).where("t0.name", "like", `${tag}-%`).orderBy("t0.name").pluck("t0.name");
      return scope ? q.whereRaw(scope.sql, scope.bindings as never[]) : q;
    };
    expect(await visible(await actorOf(false))).to.deep.equal([`${tag}-a1`]);
    expect(await visible(await actorOf(true))).to.deep.equal([`${tag}-a1`, `${tag}-b1`]);
    // No view held on the model: no row; an actor no permissions restrict (the system's): every row.
    expect(engine.scope(await actorOf(false), engine.index.model("dcim.region"), "t0")).to.deep.equal({ sql: "false", bindings: [] });
    expect(engine.scope({ userId: null, username: null, requestId: tag, context: "test", contextDetail: "" }, sites, "t0")).to.equal(null);
    // An anonymous request reads nothing where no exemption says otherwise.
    expect(engine.scope({ userId: null, username: null, requestId: tag, context: "test", contextDetail: "", anonymous: true }, sites, "t0"))
      .to.deep.equal({ sql: "false", bindings: [] });
    // The action asked narrows too: view held, change not.
    expect(engine.scope(await actorOf(false), sites, "t0", "change")).to.deep.equal({ sql: "false", bindings: [] });
    // And the store applies it to what it reads, given the operation.
    const ids: string[] = await server.db(sites.table).where("name", "like", `${tag}-%`).orderBy("name").pluck("id");
    expect(await engine.store.existing(await engine.operations.read(await actorOf(false)), sites, ids)).to.deep.equal([ids[0]]);
    expect(await engine.store.existing(await engine.operations.read(await actorOf(true)), sites, ids)).to.have.members(ids);
  });

  it("notes bring their route below the detail of every model with notes, and custom fields their OPTIONS part", () => {
    const index = new ModelIndex(inventory);
    const [notes, ...others] = featureRoutes(index);
    expect(others).to.deep.equal([]);
    expect(notes).to.deep.equal({ feature: "notes", below: "detail", path: "notes/", view: "notes", methods: ["GET", "POST"] });
    // The generated route table carries it below the detail of the models with the feature, and only there.
    const table = inventory.drfRoutes!.filter((r) => r.view === "notes");
    expect(table.find((r) => r.model === "dcim.site")).to.include({ path: "dcim/sites/{id}/notes/" });
    expect(table.find((r) => r.model === "dcim.consoleporttemplate")).to.equal(undefined);
    expect(table.map((r) => r.model).sort()).to.deep.equal(inventory.models.filter((m) => m.features.notes).map((m) => m.key).sort());
    expect(optionsContributions(index)).to.have.length(1);
  });
});
