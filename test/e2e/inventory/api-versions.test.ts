// What API 1.4 and 1.5 change, as Nautobot 1.5.24's versioned serializers do: device and VM
// interfaces show a required `status` (1.2/1.3 neither show nor take it, and their creates get
// `active`); custom-field definitions drop `name` and require `label` and `slug`; every
// object's `custom_fields` is keyed by the definitions' slugs instead of their names.
import { expect } from "chai";
import { startTestServer } from "../../support/server.js";
import { call, del, get, patch, post, put } from "../../support/http.js";
import { uniq } from "./support.js";

const as = (version: string) => ({ headers: { Accept: `application/json; version=${version}` } });

const made = async (path: string, body: Record<string, unknown>) => {
  const res = await post(path, body);
  expect(res.status, `${path} ${res.text}`).to.equal(201);
  return res.body;
};

describe("inventory e2e: API versions 1.4 and 1.5", () => {
  const tag = uniq("ver").toLowerCase();
  let device: any, vm: any;

  before(async () => {
    const site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: "Switch" });
    const role = await made("/api/dcim/device-roles/", { name: `${tag}-role` });
    device = await made("/api/dcim/devices/", { name: `${tag}-dev`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    const ctype = await made("/api/virtualization/cluster-types/", { name: `${tag} KVM` });
    const cluster = await made("/api/virtualization/clusters/", { name: `${tag}-cl`, type: ctype.id, site: site.id });
    vm = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vm`, cluster: cluster.id, status: "active" });
  });

  it("every version from 1.2 to 1.5 is served, each with its own OpenAPI document", async () => {
    for (const version of ["1.2", "1.3", "1.4", "1.5"]) {
      const res = await get("/api/dcim/sites/?limit=1", as(version));
      expect(res.status, version).to.equal(200);
      expect(res.headers.get("api-version")).to.equal(version);
      const doc = await get(`/api/swagger.json?api_version=${version}`);
      expect(doc.status).to.equal(200);
      expect(doc.body.info.version).to.equal(version);
      const docs = await get(`/api/docs/?api_version=${version}`, { headers: { Accept: "text/html" } });
      expect(docs.status, version).to.equal(200);
      expect(docs.headers.get("api-version")).to.equal(version);
    }
    const v15 = (await get("/api/swagger.json?api_version=1.5")).body;
    // A full write is the partial one (which has the properties) with its required fields.
    expect(v15.components.schemas.WritableInterfaceRequest.allOf[0].required).to.include("status");
    const v13 = (await get("/api/swagger.json?api_version=1.3")).body;
    expect(v13.components.schemas.PatchedWritableInterfaceRequest.properties).to.not.have.property("status");
    expect((await get("/api/dcim/sites/?api_version=1.6")).status).to.equal(404);
    expect((await get("/api/dcim/sites/", as("1.6"))).status).to.equal(406);
  });

  const kinds = {
    device: { list: "/api/dcim/interfaces/", table: "dcim_interface", owner: () => ({ device: device.id, type: "1000base-t" }), after: "label", model: "Interface" },
    vm: { list: "/api/virtualization/interfaces/", table: "virtualization_vminterface", owner: () => ({ virtual_machine: vm.id }), after: "enabled", model: "VMInterface" },
  } as const;

  for (const kind of ["device", "vm"] as const) {
    const k = kinds[kind];
    describe(`${kind} interfaces: status`, () => {
      const statusOf = async (id: string) => {
        const { db } = await startTestServer();
        return (await db(k.table).where({ id }).first("status")).status;
      };

      it("1.5 shows and requires it, after the serializer's field before it; 1.3 neither shows nor takes it", async () => {
        const missing = await post(k.list, { ...k.owner(), name: uniq("if") }, as("1.5"));
        expect(missing.status).to.equal(400);
        expect(missing.body).to.deep.equal({ status: ["This field is required."] });
        const bad = await post(k.list, { ...k.owner(), name: uniq("if"), status: "retired" }, as("1.5"));
        expect(bad.body).to.deep.equal({ status: ["Object with slug=retired does not exist."] });
        const planned = await post(k.list, { ...k.owner(), name: uniq("if"), status: "Planned" }, as("1.5"));
        expect(planned.status, planned.text).to.equal(201);
        expect(planned.body.status).to.deep.equal({ value: "planned", label: "Planned" });
        const keys = Object.keys(planned.body);
        expect(keys[keys.indexOf(k.after) + 1]).to.equal("status");
        expect(await statusOf(planned.body.id)).to.equal("planned");
        const old = await get(`${k.list}${planned.body.id}/`, as("1.3"));
        expect(old.body).to.not.have.property("status");
        expect((await get(`${k.list}?status=planned&id=${planned.body.id}`, as("1.3"))).body.count).to.equal(1);
        expect((await get(`${k.list}${planned.body.id}/?brief=1`, as("1.5"))).body).to.not.have.property("status");
        const made13 = await post(k.list, { ...k.owner(), name: uniq("if"), status: "planned" }, as("1.3"));
        expect(made13.status, made13.text).to.equal(201);
        expect(made13.body).to.not.have.property("status");
        expect(await statusOf(made13.body.id)).to.equal("active");
        expect((await get(`${k.list}${made13.body.id}/`, as("1.4"))).body.status).to.deep.equal({ value: "active", label: "Active" });
        const options = await call("OPTIONS", k.list, as("1.5"));
        expect(options.body.actions.POST.status).to.include({ required: true, type: "field" });
        expect(options.body.actions.POST.status.choices.map((c: any) => c.value)).to.have.members(["planned", "failed", "active", "decommissioning", "maintenance"]);
        expect((await call("OPTIONS", k.list, as("1.3"))).body.actions.POST).to.not.have.property("status");
      });

      it("1.5 updates it; a PUT must give it", async () => {
        const one = await made(k.list, { ...k.owner(), name: uniq("if") });
        const upd = await patch(`${k.list}${one.id}/`, { status: "maintenance" }, as("1.5"));
        expect(upd.body.status.value).to.equal("maintenance");
        const full = await put(`${k.list}${one.id}/`, { ...k.owner(), name: one.name }, as("1.5"));
        expect(full.status).to.equal(400);
        expect(full.body).to.deep.equal({ status: ["This field is required."] });
      });

      it(`a 1.3 create gets active, refused in Nautobot's words when active no longer applies to ${k.model}`, async () => {
        const { db } = await startTestServer();
        const ct = await db("extras_contenttype").where({ app_label: kind === "device" ? "dcim" : "virtualization", model: k.model.toLowerCase() }).first("id");
        const active = await db("extras_status").where({ slug: "active" }).first("id");
        await db("extras_status_content_types").where({ source_id: active.id, contenttype_id: ct.id }).del();
        try {
          const res = await post(k.list, { ...k.owner(), name: uniq("if") }, as("1.3"));
          expect(res.status).to.equal(400);
          expect(res.body).to.deep.equal({ status: [`${k.model} default status 'active' does not exist, create 'active' status for ${k.model} or use the latest api_version`] });
        } finally {
          await db("extras_status_content_types").insert({ source_id: active.id, contenttype_id: ct.id });
        }
      });
    });
  }

  it("a device interface keeps its status through 1.2 updates; a VM interface's becomes active, as Nautobot's serializers do", async () => {
    const dev = await made(kinds.device.list, { ...kinds.device.owner(), name: uniq("if") });
    await patch(`${kinds.device.list}${dev.id}/`, { status: "planned" }, as("1.5"));
    await patch(`${kinds.device.list}${dev.id}/`, { description: "x" }, as("1.2"));
    expect((await get(`${kinds.device.list}${dev.id}/`, as("1.5"))).body.status.value).to.equal("planned");
    const vmi = await made(kinds.vm.list, { ...kinds.vm.owner(), name: uniq("if") });
    await patch(`${kinds.vm.list}${vmi.id}/`, { status: "planned" }, as("1.5"));
    await patch(`${kinds.vm.list}${vmi.id}/`, { description: "x" }, as("1.5"));
    expect((await get(`${kinds.vm.list}${vmi.id}/`, as("1.5"))).body.status.value).to.equal("active");
  });

  it("interfaces made from a device type's templates are active", async () => {
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-tmaker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: "Templated" });
    await made("/api/dcim/interface-templates/", { device_type: type.id, name: "eth0", type: "1000base-t" });
    const dev = await made("/api/dcim/devices/", { name: `${tag}-tdev`, device_type: type.id, device_role: device.device_role.id, site: device.site.id, status: "active" });
    const list = await get(`/api/dcim/interfaces/?device_id=${dev.id}`, as("1.5"));
    expect(list.body.results.map((i: any) => [i.name, i.status.value])).to.deep.equal([["eth0", "active"]]);
  });

  describe("custom fields", () => {
    const CFS = "/api/extras/custom-fields/";
    const PROVIDERS = "/api/circuits/providers/";
    const made: string[] = [];
    after(async () => {
      for (const id of made) await del(`${CFS}${id}/`);
    });
    const define = async (body: Record<string, unknown>, version: string) => {
      const res = await post(CFS, { content_types: ["circuits.provider"], type: "text", ...body }, as(version));
      if (res.status === 201) made.push(res.body.id);
      return res;
    };
    /** A label and the slug Nautobot would make of it, unique per run. */
    const labelled = (prefix: string) => {
      const label = `${prefix} ${uniq("cf")}`;
      return { label, slug: label.toLowerCase().replace(/[^a-z0-9]+/g, "_") };
    };

    it("1.4 definitions: label and slug required, no name shown or taken; a create takes its name from the slug", async () => {
      const { label, slug } = labelled("Circuit ID");
      const missing = await define({ name: "ignored" }, "1.4");
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ label: ["This field is required."], slug: ["This field is required."] });
      const res = await define({ label, slug, name: "not_this" }, "1.4");
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.not.have.property("name");
      expect(Object.keys(res.body)).to.include.members(["content_types", "type", "label", "slug", "description", "required", "filter_logic", "default", "weight"]);
      expect(res.body).to.include({ label, slug });
      // Its UniqueValidator refuses a taken slug before the field is named after it.
      const twice = await define({ label: `${label} again`, slug }, "1.4");
      expect([twice.status, twice.body]).to.deep.equal([400, { slug: ["custom field with this slug already exists."] }]);
      const old = await get(`${CFS}${res.body.id}/`, as("1.2"));
      expect(old.body).to.include({ name: slug, label, slug });
      // The nested form (brief) is no versioned serializer: it shows the name in every version.
      expect((await get(`${CFS}${res.body.id}/?brief=1`, as("1.5"))).body).to.have.property("name", slug);
      const options = await call("OPTIONS", CFS, as("1.4"));
      expect(options.body.actions.POST).to.not.have.property("name");
      expect(options.body.actions.POST.label.required).to.equal(true);
      expect(options.body.actions.POST.slug.required).to.equal(true);
      const options12 = await call("OPTIONS", CFS, as("1.2"));
      expect(options12.body.actions.POST.name.required).to.equal(true);
      expect(options12.body.actions.POST.label.required).to.equal(false);
      const doc = (await get("/api/swagger.json?api_version=1.4")).body.components.schemas.WritableCustomFieldRequest;
      expect(doc.allOf[0].required).to.include.members(["label", "slug"]).and.not.include("name");
      // 1.2 still makes label and slug from the name.
      const name = uniq("legacy").replace(/-/g, "_");
      const legacy = await define({ name }, "1.2");
      expect(legacy.status, legacy.text).to.equal(201);
      expect(legacy.body).to.include({ name, label: name, slug: name });
    });

    it("custom_fields are keyed by slug from 1.4 and by name before, on read and write; cf_ filters by name", async () => {
      const { label, slug } = labelled("Speed Class");
      const name = uniq("speed").replace(/-/g, "_");
      const cf = await define({ name, label, slug, default: "std" }, "1.2");
      expect(cf.status, cf.text).to.equal(201);
      // Created through 1.5 without custom_fields: the default, shown by slug.
      const p = await post(PROVIDERS, { name: uniq("prov") }, as("1.5"));
      expect(p.status, p.text).to.equal(201);
      expect(p.body.custom_fields[slug]).to.equal("std");
      expect(p.body.custom_fields).to.not.have.property(name);
      // Written by slug through 1.5; a key that is no slug is dropped, and the name is no slug.
      const w15 = await patch(`${PROVIDERS}${p.body.id}/`, { custom_fields: { [slug]: "gold", [name]: "by-name", nope: 1 } }, as("1.5"));
      expect(w15.status, w15.text).to.equal(200);
      expect(w15.body.custom_fields[slug]).to.equal("gold");
      const { db } = await startTestServer();
      const data = (await db("circuits_provider").where({ id: p.body.id }).first("custom_field_data")).custom_field_data;
      // Kept by name (the create's default, keyed by slug as Nautobot's CreateOnlyDefault keys it, lingers unseen).
      expect(data[name]).to.equal("gold");
      expect(data).to.not.have.property("nope");
      // The same object through 1.2: keyed by name, read and write.
      const r12 = await get(`${PROVIDERS}${p.body.id}/`, as("1.2"));
      expect(r12.body.custom_fields[name]).to.equal("gold");
      expect(r12.body.custom_fields).to.not.have.property(slug);
      const w12 = await patch(`${PROVIDERS}${p.body.id}/`, { custom_fields: { [name]: "silver" } }, as("1.2"));
      expect(w12.body.custom_fields[name]).to.equal("silver");
      expect((await get(`${PROVIDERS}${p.body.id}/`, as("1.5"))).body.custom_fields[slug]).to.equal("silver");
      // A bad value is reported by the definition's name, as Nautobot's clean words it.
      await put(`${CFS}${cf.body.id}/`, { content_types: ["circuits.provider"], type: "text", name, label, slug, validation_regex: "^[a-z]+$" }, as("1.2"));
      const bad = await patch(`${PROVIDERS}${p.body.id}/`, { custom_fields: { [slug]: "Gold1" } }, as("1.5"));
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ __all__: [`Invalid value for custom field '${name}': Value must match regex '^[a-z]+$'`] });
      // Filters keep the name in every version.
      for (const version of ["1.2", "1.5"]) {
        const found = await get(`${PROVIDERS}?cf_${name}=silver&id=${p.body.id}`, as(version));
        expect(found.body.count, version).to.equal(1);
      }
      expect((await get(`${PROVIDERS}?cf_${slug}=silver`, as("1.5"))).status).to.equal(400);
      // OPTIONS describes each custom field under the key the version uses.
      const o15 = await call("OPTIONS", PROVIDERS, as("1.5"));
      expect(o15.body.actions.POST.custom_fields.children).to.have.property(slug);
      expect(o15.body.actions.POST.custom_fields.children).to.not.have.property(name);
      const o12 = await call("OPTIONS", PROVIDERS, as("1.2"));
      expect(o12.body.actions.POST.custom_fields.children).to.have.property(name);
    });
  });
});
