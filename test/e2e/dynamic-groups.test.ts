// Dynamic groups over HTTP, as Nautobot 1.5.24 answers them: groups of virtual machines by a
// filter of the VM filter set (validated with the REST list's own words), memberships with
// Nautobot's rules, nested groups folded by their operators, the `members` action in the
// VM list's shape (paged, one statement even over 100,000 VMs), and permissions.
import { expect } from "chai";
import { del, get, patch, post } from "../support/http.js";
import { startTestServer } from "../support/server.js";
import { statements } from "../support/statements.js";
import { rows, uniq } from "./inventory/support.js";

const GROUPS = "/api/extras/dynamic-groups/";
const MEMBERSHIPS = "/api/extras/dynamic-group-memberships/";
const VMS = "/api/virtualization/virtual-machines/";

describe("e2e: dynamic groups", () => {
  const tag = uniq("dg").toLowerCase();
  const cf = `dg_env_${process.pid}`;
  let ctype: any, c1: any, c2: any, tenant: any, red: any;
  const vm: Record<string, any> = {};

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  const group = (name: string, filter: Record<string, unknown>) => made(GROUPS, { name: `${tag} ${name}`, content_type: "virtualization.virtualmachine", filter });
  const member = (parent: any, child: any, operator: string, weight: number) =>
    made(MEMBERSHIPS, { parent_group: parent.id, group: child.id, operator, weight });
  /** The names of the group's members (all pages). */
  const members = async (g: any): Promise<string[]> => {
    const res = await get(`${GROUPS}${g.id}/members/?limit=1000`);
    expect(res.status, res.text).to.equal(200);
    return res.body.results.map((o: any) => o.name).sort();
  };
  const names = (...keys: string[]) => keys.map((k) => vm[k].name).sort();
  /** Scopes a filter to this suite's VMs (the demo data has others). */
  const mine = (filter: Record<string, unknown>) => ({ cluster_type: [ctype.slug], ...filter });

  before(async () => {
    const site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    ctype = await made("/api/virtualization/cluster-types/", { name: `${tag} type` });
    c1 = await made("/api/virtualization/clusters/", { name: `${tag}-c1`, type: ctype.id, site: site.id });
    c2 = await made("/api/virtualization/clusters/", { name: `${tag}-c2`, type: ctype.id });
    tenant = await made("/api/tenancy/tenants/", { name: `${tag} Acme` });
    red = await made("/api/extras/tags/", { name: `${tag} red`, content_types: ["virtualization.virtualmachine"] });
    await made("/api/extras/custom-fields/", { name: cf, label: cf, type: "text", content_types: ["virtualization.virtualmachine"] });
    const specs: Record<string, Record<string, unknown>> = {
      web1: { cluster: c1.id, status: "active", tenant: tenant.id, tags: [red.id], vcpus: 2, custom_fields: { [cf]: "prod" } },
      web2: { cluster: c2.id, status: "planned", vcpus: 4, custom_fields: { [cf]: "dev" } },
      db1: { cluster: c1.id, status: "active", tags: [red.id], vcpus: 8 },
      db2: { cluster: c2.id, status: "offline", tenant: tenant.id },
    };
    for (const [key, body] of Object.entries(specs)) vm[key] = await made(VMS, { name: `${tag}-${key.replace(/(\d)/, "-$1")}`, ...body });
  });

  describe("groups", () => {
    it("show Nautobot's fields, with children and a members action", async () => {
      const g = await group("Web", mine({ name__ic: ["-WEB-"] }));
      // A write's reply shows the opt-in fields too.
      expect(Object.keys(g).sort()).to.deep.equal([
        "children", "computed_fields", "content_type", "created", "custom_fields", "description", "display", "filter", "id", "last_updated", "name", "notes_url",
        "relationships", "slug", "url",
      ]);
      expect(Object.keys((await get(`${GROUPS}${g.id}/`)).body).sort()).to.deep.equal([
        "children", "content_type", "created", "custom_fields", "description", "display", "filter", "id", "last_updated", "name", "notes_url", "slug", "url",
      ]);
      expect(g).to.deep.include({ name: `${tag} Web`, slug: `${tag}-web`, display: `${tag} Web`, description: "", content_type: "virtualization.virtualmachine", children: [] });
      expect(g.filter).to.deep.equal(mine({ name__ic: ["-WEB-"] }));
      const brief = (await get(`${GROUPS}${g.id}/?brief=1`)).body;
      expect(Object.keys(brief).sort()).to.deep.equal(["content_type", "display", "id", "name", "slug", "url"]);
      expect(await members(g)).to.deep.equal(names("web1", "web2"));
      const listed = (await get(`${GROUPS}?q=${tag}-web`)).body.results.map((x: any) => x.id);
      expect(listed).to.deep.equal([g.id]);
      expect((await get(`${GROUPS}?q=virtualmachine&slug=${g.slug}`)).body.count).to.equal(1);
      expect((await get(`${GROUPS}?content_type=dcim.device&slug=${g.slug}`)).body.count).to.equal(0);
    });

    it("the demo's nested group: Berlin DC1's devices but the edge routers", async () => {
      const demo = (await get(`${GROUPS}?slug=berlin-dc1-without-the-edge`)).body.results[0];
      expect(demo.children.map((c: any) => [c.group.slug, c.operator])).to.deep.equal([["berlin-dc1-devices", "intersection"], ["edge-routers", "difference"]]);
      const expected = (await get("/api/dcim/devices/?site=berlin-dc1&role__n=core-router&limit=100")).body;
      const found = (await get(`${GROUPS}${demo.id}/members/?limit=100`)).body;
      expect(found.count).to.equal(expected.count).and.to.be.above(0);
      expect(found.results.map((d: any) => d.name)).to.deep.equal(expected.results.map((d: any) => d.name));
    });

    it("an empty filter takes every object of the content type", async () => {
      const g = await group("Everything", {});
      const all = (await get(`${VMS}?limit=1`)).body.count;
      expect((await get(`${GROUPS}${g.id}/members/?limit=1`)).body.count).to.equal(all);
    });

    it("filter by every kind of VM filter: exact, lookups, negation, several values, links by slug and id, tags, custom fields, status, numbers, booleans", async () => {
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ name: [vm.web1.name] }, ["web1"]],
        [mine({ name__ic: ["-DB-"] }), ["db1", "db2"]],
        [mine({ name__isw: `${tag}-web` }), ["web1", "web2"]],
        [mine({ name__n: [vm.web1.name, vm.db1.name] }), ["web2", "db2"]],
        [mine({ name__re: "-(web|db)-1$" }), ["web1", "db1"]],
        [mine({ status: ["planned", "offline"] }), ["web2", "db2"]],
        [mine({ status__n: ["active"] }), ["web2", "db2"]],
        [{ tenant: [tenant.slug] }, ["web1", "db2"]],
        [{ tenant_id: [tenant.id], cluster: [c2.name] }, ["db2"]],
        [{ cluster_id: [c1.id] }, ["web1", "db1"]],
        [mine({ cluster_id__n: [c1.id] }), ["web2", "db2"]],
        [mine({ site: [`${tag}-site`] }), ["web1", "db1"]],
        [{ tag: [red.slug] }, ["web1", "db1"]],
        [mine({ tag__n: [red.slug] }), ["web2", "db2"]],
        [{ [`cf_${cf}`]: "prod" }, ["web1"]],
        [mine({ [`cf_${cf}__ic`]: "D" }), ["web1", "web2"]],
        [mine({ vcpus__gte: 4 }), ["web2", "db1"]],
        [mine({ vcpus: [2, 8] }), ["web1", "db1"]],
        [mine({ has_primary_ip: false, status: "active" }), ["web1", "db1"]],
      ];
      for (const [filter, expected] of cases) {
        const g = await group(`kind ${uniq("k")}`, filter);
        expect(await members(g), JSON.stringify(filter)).to.deep.equal(names(...expected));
      }
    });

    it("refuse a filter the VM list would refuse, in the list's words, and change nothing", async () => {
      const bad: Array<Record<string, string>> = [
        { nonexistent: "x" },
        { status: "bogus" },
        { tenant: "no-such-tenant" },
        { cluster_id: "not-a-uuid" },
        { vcpus__gte: "many" },
        { name__re: "(" },
        { has_primary_ip: "maybe" },
        { tag: "no-such-tag", vcpus: "two" },
      ];
      for (const filter of bad) {
        const listed = await get(`${VMS}?${new URLSearchParams(filter)}`);
        expect(listed.status, JSON.stringify(filter)).to.equal(400);
        const res = await post(GROUPS, { name: `${tag} bad`, content_type: "virtualization.virtualmachine", filter });
        expect([res.status, res.body], JSON.stringify(filter)).to.deep.equal([400, listed.body]);
      }
      const notDict = await post(GROUPS, { name: `${tag} bad`, content_type: "virtualization.virtualmachine", filter: ["status"] });
      expect([notDict.status, notDict.body]).to.deep.equal([400, { filter: ["Filter must be a dict"] }]);
      const g = await group("Fixed", { status: ["active"] });
      const edit = await patch(`${GROUPS}${g.id}/`, { filter: { status: "nope" } });
      expect(edit.status).to.equal(400);
      const moved = await patch(`${GROUPS}${g.id}/`, { content_type: "dcim.device" });
      expect([moved.status, moved.body]).to.deep.equal([400, { content_type: ["ContentType cannot be changed once created"] }]);
      const wrongType = await post(GROUPS, { name: `${tag} bad`, content_type: "dcim.site", filter: {} });
      expect([wrongType.status, wrongType.body]).to.deep.equal([400, { content_type: ["Invalid content type: dcim.site"] }]);
      const missing = await post(GROUPS, { content_type: "virtualization.virtualmachine" });
      expect([missing.status, missing.body]).to.deep.equal([400, { name: ["This field is required."] }]);
      expect(await rows("extras_dynamicgroup", { name: `${tag} bad` })).to.equal(0);
      expect((await get(`${GROUPS}${g.id}/`)).body.filter).to.deep.equal({ status: ["active"] });
      const renamed = await patch(`${GROUPS}${g.id}/`, { filter: { status: ["planned"] }, description: "planned ones" });
      expect(renamed.status, renamed.text).to.equal(200);
      expect(await members(await (await get(`${GROUPS}${g.id}/`)).body)).to.include(vm.web2.name);
    });

    it("members are the VM list's objects (without config_context), paged, in the list's order", async () => {
      const g = await group("Paged", mine({}));
      const page = await get(`${GROUPS}${g.id}/members/?limit=2&offset=1`);
      expect(page.status).to.equal(200);
      const listed = (await get(`${VMS}?cluster_type=${ctype.slug}&limit=2&offset=1`)).body;
      expect(page.body.count).to.equal(4);
      const strip = (o: any) => {
        const { config_context: _omitted, ...rest } = o;
        return rest;
      };
      expect(page.body.results).to.deep.equal(listed.results.map(strip));
      expect(page.body.results[0]).to.not.have.property("config_context");
      expect(page.body.results[0]).to.not.have.property("dynamic_groups");
      expect(page.body.next).to.match(/\/members\/\?limit=2&offset=3$/);
      expect(page.body.previous).to.match(/\/members\/\?limit=2$/);
      expect((await get(`${GROUPS}00000000-0000-4000-8000-000000000000/members/`)).status).to.equal(404);
    });
  });

  describe("memberships", () => {
    let active: any, tenanted: any, tagged: any;
    before(async () => {
      active = await group("Active", mine({ status: ["active"] }));
      tenanted = await group("Tenanted", { tenant: [tenant.slug] });
      tagged = await group("Red", { tag: [red.slug] });
    });

    it("fold children by weight: intersection, union, then difference", async () => {
      const parent = await group("Folded", {});
      const first = await member(parent, active, "intersection", 10);
      expect(first).to.deep.include({ operator: "intersection", weight: 10, display: `${tag} Folded > intersection (10) > ${tag} Active` });
      expect(Object.keys(first.group).sort()).to.deep.equal(["content_type", "display", "id", "name", "slug", "url"]);
      expect(await members(parent)).to.deep.equal(names("web1", "db1"));
      await member(parent, tenanted, "union", 20);
      expect(await members(parent)).to.deep.equal(names("web1", "db1", "db2"));
      await member(parent, tagged, "difference", 30);
      expect(await members(parent)).to.deep.equal(names("db2"));
      const shown = (await get(`${GROUPS}${parent.id}/`)).body;
      expect(shown.children.map((c: any) => [c.group.slug, c.operator, c.weight])).to.deep.equal([
        [active.slug, "intersection", 10], [tenanted.slug, "union", 20], [tagged.slug, "difference", 30],
      ]);
      expect(Object.keys(shown.children[0]).sort()).to.deep.equal(["display", "group", "id", "operator", "parent_group", "url", "weight"]);

      // Two levels: a child without a filter gives its own children folded.
      const outer = await group("Outer", {});
      await member(outer, parent, "union", 10);
      expect(await members(outer)).to.deep.equal(names("db2"));

      // And no deeper, as 1.5's generate_members_query: a grandchild without a filter adds nothing.
      const deep = await group("Deep", {});
      const hollow = await group("Hollow", {});
      await member(deep, hollow, "intersection", 10);
      await member(hollow, outer, "intersection", 10);
      const everything = (await get(`${VMS}?limit=1`)).body.count;
      expect((await get(`${GROUPS}${deep.id}/members/?limit=1`)).body.count).to.equal(everything);

      const both = await group("Both", {});
      await member(both, tenanted, "intersection", 10);
      await member(both, active, "intersection", 20);
      expect(await members(both)).to.deep.equal(names("web1"));

      const scoped = await group("Scoped", {});
      await member(scoped, await group("Mine", mine({})), "intersection", 10);
      await member(scoped, tagged, "difference", 20);
      expect(await members(scoped)).to.deep.equal(names("web2", "db2"));

      // A first difference takes every object but the child's.
      const rest = await group("Rest", {});
      await member(rest, tagged, "difference", 10);
      const all = (await get(`${VMS}?limit=1`)).body.count;
      expect((await get(`${GROUPS}${rest.id}/members/?limit=1`)).body.count).to.equal(all - 2);
      expect((await get(`${MEMBERSHIPS}?parent_group=${parent.slug}`)).body.count).to.equal(3);
      expect((await get(`${MEMBERSHIPS}?group=${tagged.id}&operator=difference&parent_group=${rest.slug}`)).body.count).to.equal(1);
      expect((await get(`${MEMBERSHIPS}?q=${tag}-outer`)).body.count).to.equal(2);
    });

    it("refuse what Nautobot refuses: a parent with a filter, other content types, cycles, duplicates", async () => {
      const root = await group("Root", {});
      const mid = await group("Mid", {});
      await member(root, mid, "union", 10);
      await member(mid, tagged, "union", 10);
      const devices = await made(GROUPS, { name: `${tag} Devices`, content_type: "dcim.device", filter: {} });
      const before = await rows("extras_dynamicgroupmembership");
      const cases: Array<[Record<string, unknown>, unknown]> = [
        [{ parent_group: active.id, group: tagged.id, operator: "union", weight: 10 },
          { parent_group: ["A parent group may have either a filter or child groups, but not both. Clear the parent filter and try again."] }],
        [{ parent_group: root.id, group: devices.id, operator: "union", weight: 20 }, { group: ["ContentType for group and parent_group must match"] }],
        [{ parent_group: root.id, group: root.id, operator: "union", weight: 20 }, { group: ["Cannot add group as a child of itself"] }],
        [{ parent_group: mid.id, group: root.id, operator: "union", weight: 20 }, { group: ["Cannot add ancestor as a child"] }],
        [{ parent_group: root.id, group: mid.id, operator: "union", weight: 10 }, { non_field_errors: ["The fields group, parent_group, operator, weight must make a unique set."] }],
        [{ parent_group: root.id, group: tagged.id, operator: "xor", weight: 10 }, { operator: ['"xor" is not a valid choice.'] }],
        [{ parent_group: root.id, group: tagged.id, operator: "union", weight: -1 }, { weight: ["Ensure this value is greater than or equal to 0."] }],
        [{ parent_group: root.id, operator: "union", weight: 1 }, { group: ["This field is required."] }],
      ];
      for (const [body, errors] of cases) {
        const res = await post(MEMBERSHIPS, body);
        expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
      }
      expect(await rows("extras_dynamicgroupmembership")).to.equal(before);
      const inUse = await del(`${GROUPS}${mid.id}/`);
      expect(inUse.status).to.equal(409);
      expect(inUse.body.detail).to.equal(`Unable to delete object. 1 dependent objects were found: ${tag} Root (${root.id})`);
      expect(await rows("extras_dynamicgroup", { id: mid.id })).to.equal(1);
      expect((await del(`${GROUPS}${root.id}/`)).status).to.equal(204);
      expect(await rows("extras_dynamicgroupmembership", { parent_group_id: root.id })).to.equal(0);
      expect((await del(`${GROUPS}${mid.id}/`)).status).to.equal(204);
    });
  });

  describe("permissions", () => {
    it("members need view on dynamic groups (not on the members), and the group must be one the grant reaches", async () => {
      const server = await startTestServer();
      const g = await group("Perm", mine({}));
      const other = await group("Perm other", mine({}));
      const viewer = (await server.user(uniq(`${tag}-v`), { grants: [{ object_types: ["extras.dynamicgroup"], actions: ["view"], constraints: { slug: g.slug } }] })).key;
      const ok = await get(`${GROUPS}${g.id}/members/`, { token: viewer });
      expect([ok.status, ok.body.count]).to.deep.equal([200, 4]);
      expect((await get(`${GROUPS}${other.id}/members/`, { token: viewer })).status).to.equal(404);
      expect((await get(`${VMS}`, { token: viewer })).status).to.equal(403);
      const nobody = (await server.user(uniq(`${tag}-n`), { grants: [{ object_types: ["virtualization.virtualmachine"], actions: ["view"] }] })).key;
      expect((await get(`${GROUPS}${g.id}/members/`, { token: nobody })).status).to.equal(403);
      expect((await post(GROUPS, { name: `${tag} denied`, content_type: "virtualization.virtualmachine" }, { token: viewer })).status).to.equal(403);
      expect((await post(MEMBERSHIPS, { parent_group: g.id, group: other.id, operator: "union", weight: 1 }, { token: viewer })).status).to.equal(403);
      expect((await get(`${GROUPS}${g.id}/members/`, { token: null })).status).to.equal(403);
    });
  });

  describe("at 100,000 objects", () => {
    let cluster: any;
    before(async function () {
      this.timeout(600_000);
      const { db } = await startTestServer();
      cluster = await made("/api/virtualization/clusters/", { name: `${tag}-big`, type: ctype.id });
      // Rows written straight to the table: the suite is about reading them.
      await db.raw(
        `INSERT INTO virtualization_virtualmachine (name, cluster_id, status, vcpus)
         SELECT 'big-' || g, ?::uuid, CASE WHEN g % 2 = 0 THEN 'active' ELSE 'planned' END, g % 16 FROM generate_series(1, 100000) g`,
        [cluster.id],
      );
    });
    after(async function () {
      this.timeout(600_000);
      const { db } = await startTestServer();
      await db("virtualization_virtualmachine").where("cluster_id", cluster.id).del();
    });

    it("membership of nested groups is one statement over the VMs", async () => {
      const even = await group("Big even", { cluster_id: [cluster.id], status: ["active"] });
      const tens = await group("Big tens", { cluster: [cluster.name], name__iew: "0" });
      const lowCpu = await group("Big low", { cluster_id: [cluster.id], vcpus__lt: 4 });
      const parent = await group("Big parent", {});
      await member(parent, even, "intersection", 10);
      await member(parent, tens, "difference", 20);
      await member(parent, lowCpu, "union", 30);
      const { sql, status, body } = await statements(`${GROUPS}${parent.id}/members/?limit=5`);
      expect(status).to.equal(200);
      // even and not a multiple of ten (40,000), and every one with vcpus < 4 (g % 16 < 4: 15,000 more).
      const { db } = await startTestServer();
      const expected = await db("virtualization_virtualmachine").where("cluster_id", cluster.id)
        .andWhere((q) => q.where((w) => w.where("status", "active").andWhereNot("name", "like", "%0")).orWhere("vcpus", "<", 4)).count({ n: "*" }).first();
      expect(body.count).to.equal(Number((expected as { n: string }).n));
      expect(body.count).to.equal(55_000);
      expect(body.results).to.have.length(5);
      const reading = sql.filter((s) => s.includes('"virtualization_virtualmachine"'));
      expect(reading, sql.join("\n")).to.have.length(1);
      expect(sql.length, sql.join("\n")).to.be.at.most(4);
      const single = await statements(`${GROUPS}${even.id}/members/?limit=1`);
      expect(single.body.count).to.equal(50_000);
      expect(single.sql.filter((s) => s.includes('"virtualization_virtualmachine"'))).to.have.length(1);
    });
  });
});
