// Unknown keys in inventory write bodies, as the real clients send them: ignored by default, as
// DRF ignores them (pynautobot's device-type set-up, the Ansible collection's VLAN groups), on
// every kind of write; refused with `Unknown field.` and nothing changed on an app instance
// whose API sets STRICT_WRITE_FIELDS.
import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { apis } from "../../../generated/server.js";
import { startTestServer } from "../../support/server.js";
import { call, get, patch, post, put } from "../../support/http.js";
import { row, rows, uniq } from "./support.js";

// As the devicetype-library YAML reads, which pynautobot's integration set-up posts whole.
const components = {
  "console-ports": [{ name: "Console", type: "rj-45" }],
  "power-ports": [{ name: "PSU1", type: "iec-60320-c14", maximum_draw: 200 }],
  interfaces: [{ name: "eth0", type: "1000base-t", mgmt_only: true }],
};

describe("inventory e2e: unknown keys in write bodies", () => {
  let manufacturer: any;
  // The prefixes' own VRF: other files put addresses in the global one (10.77.0.1, …), which
  // would take the first available address this file expects.
  let vrf: any;

  before(async () => {
    const name = uniq("wf-maker");
    manufacturer = (await post("/api/dcim/manufacturers/", { name, slug: name.toLowerCase() })).body;
    vrf = (await post("/api/ipam/vrfs/", { name: uniq("wf-vrf") })).body;
  });

  describe("by default (STRICT_WRITE_FIELDS false): ignored, as Nautobot ignores them", () => {
    it("a device type posted with console-ports, power-ports and interfaces: 201, the keys ignored, no components made", async () => {
      const templates = await rows("dcim_consoleporttemplate") + await rows("dcim_powerporttemplate") + await rows("dcim_interfacetemplate");
      const model = uniq("wf-type");
      const res = await post("/api/dcim/device-types/", { manufacturer: manufacturer.id, model, slug: model.toLowerCase(), u_height: 2, ...components });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ model, u_height: 2 });
      expect(res.body).to.not.have.any.keys("console-ports", "power-ports", "interfaces");
      expect(await row("dcim_devicetype", res.body.id)).to.include({ model, u_height: 2 });
      expect(await rows("dcim_consoleporttemplate") + await rows("dcim_powerporttemplate") + await rows("dcim_interfacetemplate")).to.equal(templates);
    });

    it("a VLAN group posted with a tenant (the Ansible collection's populate script): 201", async () => {
      const tenant = (await post("/api/tenancy/tenants/", { name: uniq("wf-tenant") })).body;
      const name = uniq("wf-group");
      const res = await post("/api/ipam/vlan-groups/", { name, slug: name.toLowerCase(), tenant: tenant.id });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.not.have.property("tenant");
      expect(await rows("ipam_vlangroup", { name })).to.equal(1);
    });

    it("PUT, PATCH, bulk create and bulk PATCH with unknown keys write the known ones", async () => {
      const name = uniq("wf-tenant");
      const one = await post("/api/tenancy/tenants/", { name, colour: "red" });
      expect(one.status, one.text).to.equal(201);
      const replaced = await put(`/api/tenancy/tenants/${one.body.id}/`, { name, slug: one.body.slug, description: "put", colour: "red" });
      expect([replaced.status, replaced.body.description]).to.deep.equal([200, "put"]);
      const changed = await patch(`/api/tenancy/tenants/${one.body.id}/`, { description: "patch", "not-a-field": [1] });
      expect([changed.status, changed.body.description]).to.deep.equal([200, "patch"]);

      const names = [uniq("wf-bulk"), uniq("wf-bulk")];
      const many = await post("/api/tenancy/tenants/", names.map((x) => ({ name: x, colour: "red" })));
      expect(many.status, many.text).to.equal(201);
      const bulk = await patch("/api/tenancy/tenants/", many.body.map((t: any) => ({ id: t.id, description: "bulk", colour: "blue" })));
      expect(bulk.status, bulk.text).to.equal(200);
      for (const t of many.body) expect((await row("tenancy_tenant", t.id))!.description).to.equal("bulk");
      expect((await row("tenancy_tenant", one.body.id))!.description).to.equal("patch");
    });

    it("available-ips, available-prefixes and notes POSTs with unknown keys: 201", async () => {
      const parent = await post("/api/ipam/prefixes/", { prefix: "10.0.0.0/24", status: "container", vrf: vrf.id });
      expect(parent.status, parent.text).to.equal(201);
      const ip = await post(`/api/ipam/prefixes/${parent.body.id}/available-ips/`, { status: "active", colour: "red" });
      expect([ip.status, ip.body.address]).to.deep.equal([201, "10.0.0.1/24"]);
      const child = await post(`/api/ipam/prefixes/${parent.body.id}/available-prefixes/`, { prefix_length: 28, status: "active", colour: "red" });
      expect([child.status, child.body.prefix]).to.deep.equal([201, "10.0.0.0/28"]);
      const note = await post(`/api/ipam/prefixes/${parent.body.id}/notes/`, { note: "hello", colour: "red" });
      expect([note.status, note.body.note]).to.deep.equal([201, "hello"]);
    });

    it("the document says unknown keys are allowed: request schemas leave additionalProperties open", async () => {
      const doc = (await get("/api/swagger.json")).body;
      // A full write is the partial one with its required fields.
      expect(doc.components.schemas.WritableTenantRequest.allOf[1]).to.deep.equal({ $ref: "#/components/schemas/PatchedWritableTenantRequest" });
      expect(doc.components.schemas.PatchedWritableTenantRequest).to.have.property("additionalProperties").that.is.an("object");
    });
  });

  describe("with STRICT_WRITE_FIELDS true: refused, nothing changed", () => {
    let server: Server;
    let base: string;
    let token: string;

    before(async () => {
      const shared = await startTestServer();
      token = shared.token;
      const strict = apis.map((a) => (a.name === "inventory" ? { ...a, settings: { ...a.settings, STRICT_WRITE_FIELDS: true } } : a));
      const app = createApp(strict, shared.db, { ...configFromEnv(), publicUrl: undefined, logRequests: false });
      server = await new Promise((resolve) => {
        const s = app.listen(0, "127.0.0.1", () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const send = (method: string, path: string, body: unknown, raw = false) =>
      call(method, `${base}${path}`, { token, body, raw });

    it("a device type with component keys: 400 naming each, no device type made", async () => {
      const model = uniq("wf-strict-type");
      const res = await send("POST", "/api/dcim/device-types/", { manufacturer: manufacturer.id, model, ...components });
      expect([res.status, res.body]).to.deep.equal([400, {
        "console-ports": ["Unknown field."], "power-ports": ["Unknown field."], interfaces: ["Unknown field."],
      }]);
      expect(await rows("dcim_devicetype", { model })).to.equal(0);
    });

    it("PATCH, bulk PATCH, a prototype-named key, available-ips and notes: 400, nothing changed; read-only keys still ignored", async () => {
      const name = uniq("wf-strict");
      const tenant = await send("POST", "/api/tenancy/tenants/", { name, description: "before" });
      expect(tenant.status, tenant.text).to.equal(201);
      const detail = `/api/tenancy/tenants/${tenant.body.id}/`;
      expect(await send("PATCH", detail, { description: "after", colour: "red" }).then((r) => [r.status, r.body]))
        .to.deep.equal([400, { colour: ["Unknown field."] }]);
      const bulk = await send("PATCH", "/api/tenancy/tenants/", [{ id: tenant.body.id, description: "after", colour: "red" }]);
      expect([bulk.status, bulk.body]).to.deep.equal([400, { colour: ["Unknown field."] }]);
      expect((await row("tenancy_tenant", tenant.body.id))!.description).to.equal("before");
      const proto = await send("POST", "/api/tenancy/tenants/", `{"name":"${uniq("wf-strict")}","constructor":[1]}`, true);
      expect([proto.status, proto.body]).to.deep.equal([400, { constructor: ["Unknown field."] }]);
      const readOnly = await send("PATCH", detail, { description: "after", id: tenant.body.id, url: "x", display: "x", created: "x" });
      expect([readOnly.status, readOnly.body.description]).to.deep.equal([200, "after"]);

      const parent = await send("POST", "/api/ipam/prefixes/", { prefix: "10.0.1.0/24", status: "container", vrf: vrf.id });
      expect(parent.status, parent.text).to.equal(201);
      const addresses = await rows("ipam_ipaddress");
      const ip = await send("POST", `/api/ipam/prefixes/${parent.body.id}/available-ips/`, { status: "active", colour: "red" });
      expect([ip.status, ip.body]).to.deep.equal([400, { colour: ["Unknown field."] }]);
      expect(await rows("ipam_ipaddress")).to.equal(addresses);
      const notes = await rows("extras_note");
      const note = await send("POST", `/api/ipam/prefixes/${parent.body.id}/notes/`, { note: "hello", colour: "red" });
      expect([note.status, note.body]).to.deep.equal([400, { colour: ["Unknown field."] }]);
      expect(await rows("extras_note")).to.equal(notes);
    });
  });
});
