// Filter sets over HTTP on the first models: equality, OR within a parameter, AND across
// parameters, AND for repeated `tag`, `q`, `id`, every string and numeric lookup, `__n` on
// foreign keys, FKs by slug or UUID (tree FKs match descendants), strict filtering, and
// 400 (never 5xx) for invalid values. Each test scopes its query with a unique marker.
import { expect } from "chai";
import { get, post, patch, del } from "../../support/http.js";
import { row, rows, uniq } from "./support.js";

interface Obj { id: string; name: string; slug: string }

describe("inventory e2e: filters", () => {
  let m: string;
  let A: Obj, B: Obj, C: Obj;
  let root: Obj, child: Obj, t1: Obj, t2: Obj, tenant: Obj;

  /** Names of the marked sites matching `query`, sorted. */
  async function sites(query: string): Promise<string[]> {
    const res = await get(`/api/dcim/sites/?description=${m}&${query}`);
    expect(res.status, `${query}: ${res.text}`).to.equal(200);
    return res.body.results.map((s: Obj) => s.name).sort();
  }

  async function refused(path: string, param: string, message?: string): Promise<void> {
    const res = await get(path);
    expect(res.status, path).to.equal(400);
    expect(Object.keys(res.body), path).to.deep.equal([param]);
    if (message) expect(res.body[param]).to.deep.equal([message]);
  }

  before(async () => {
    m = uniq("flt");
    root = (await post("/api/dcim/regions/", { name: `${m}-root` })).body;
    child = (await post("/api/dcim/regions/", { name: `${m}-child`, parent: root.id })).body;
    [t1, t2] = (await post("/api/extras/tags/", [{ name: `${m}-t1` }, { name: `${m}-t2` }])).body;
    tenant = (await post("/api/tenancy/tenants/", { name: `${m}-tenant` })).body;
    const res = await post("/api/dcim/sites/", [
      { name: `${m}-Alpha`, description: m, facility: "DC-North", asn: 65010, status: "active", region: child.id, tenant: tenant.id, tags: [t1.id, t2.id] },
      { name: `${m}-Beta`, description: m, facility: "dc-south", asn: 65020, status: "planned", region: root.id, tags: [t1.id] },
      { name: `${m}-Gamma`, description: m, status: "active" },
    ]);
    expect(res.status).to.equal(201);
    [A, B, C] = res.body;
  });

  it("field equality; repeated parameter = OR; different parameters = AND", async () => {
    expect(await sites(`name=${A.name}`)).to.deep.equal([A.name]);
    expect(await sites(`name=${A.name}&name=${B.name}`)).to.deep.equal([A.name, B.name]);
    expect(await sites("status=active")).to.deep.equal([A.name, C.name]);
    expect(await sites("status=active&status=planned")).to.deep.equal([A.name, B.name, C.name]);
    expect(await sites(`status=active&name=${B.name}`)).to.deep.equal([]);
    expect(await sites(`status=active&tenant=${tenant.slug}`)).to.deep.equal([A.name]);
    expect(await sites("status__n=active")).to.deep.equal([B.name]);
  });

  it("string lookups: n ic nic isw nisw iew niew ie nie", async () => {
    expect(await sites(`name__n=${A.name}`)).to.deep.equal([B.name, C.name]);
    expect(await sites(`name__n=${A.name}&name__n=${B.name}`)).to.deep.equal([C.name]);
    expect(await sites("name__ic=ALPH")).to.deep.equal([A.name]);
    expect(await sites("name__nic=alph")).to.deep.equal([B.name, C.name]);
    expect(await sites(`name__isw=${m.toUpperCase()}-al`)).to.deep.equal([A.name]);
    expect(await sites(`name__nisw=${m}-al`)).to.deep.equal([B.name, C.name]);
    expect(await sites("name__iew=ETA")).to.deep.equal([B.name]);
    expect(await sites("name__niew=eta")).to.deep.equal([A.name, C.name]);
    expect(await sites(`name__ie=${A.name.toUpperCase()}`)).to.deep.equal([A.name]);
    expect(await sites(`name__nie=${A.name.toLowerCase()}`)).to.deep.equal([B.name, C.name]);
    expect(await sites("facility__ic=dc-")).to.deep.equal([A.name, B.name]);
    expect(await sites("facility__n=DC-North")).to.deep.equal([B.name, C.name]);
  });

  it("LIKE wildcards in values are literal", async () => {
    expect(await sites("name__ic=%25")).to.deep.equal([]);
    expect(await sites("name__isw=_")).to.deep.equal([]);
  });

  it("regex lookups: re nre ire nire (case-sensitive and not)", async () => {
    expect(await sites("name__re=Alpha%24")).to.deep.equal([A.name]);
    expect(await sites("name__re=alpha%24")).to.deep.equal([]);
    expect(await sites("name__nre=Alpha%24")).to.deep.equal([B.name, C.name]);
    expect(await sites("name__ire=ALPHA%24")).to.deep.equal([A.name]);
    expect(await sites("name__nire=(alpha|beta)%24")).to.deep.equal([C.name]);
  });

  it("numeric lookups: equality, n, lt, lte, gt, gte (NULLs stay in negations)", async () => {
    expect(await sites("asn=65010")).to.deep.equal([A.name]);
    expect(await sites("asn=65010&asn=65020")).to.deep.equal([A.name, B.name]);
    expect(await sites("asn__n=65010")).to.deep.equal([B.name, C.name]);
    expect(await sites("asn__lt=65020")).to.deep.equal([A.name]);
    expect(await sites("asn__lte=65020")).to.deep.equal([A.name, B.name]);
    expect(await sites("asn__gt=65010")).to.deep.equal([B.name]);
    expect(await sites("asn__gte=65010")).to.deep.equal([A.name, B.name]);
  });

  it("numeric lookups on role weight", async () => {
    const d = uniq("w");
    await post("/api/ipam/roles/", [{ name: `${d}-a`, weight: 10, description: d }, { name: `${d}-b`, weight: 20, description: d }, { name: `${d}-c`, description: d }]);
    const names = async (q: string) => (await get(`/api/ipam/roles/?description=${d}&${q}`)).body.results.map((r: Obj) => r.name).sort();
    expect(await names("weight=20")).to.deep.equal([`${d}-b`]);
    expect(await names("weight__lt=20")).to.deep.equal([`${d}-a`]);
    expect(await names("weight__gte=20")).to.deep.equal([`${d}-b`, `${d}-c`]);
    expect(await names("weight__n=1000")).to.deep.equal([`${d}-a`, `${d}-b`]);
  });

  it("repeated tag = AND; tag__n excludes", async () => {
    expect(await sites(`tag=${t1.slug}`)).to.deep.equal([A.name, B.name]);
    expect(await sites(`tag=${t1.slug}&tag=${t2.slug}`)).to.deep.equal([A.name]);
    expect(await sites(`tag__n=${t2.slug}`)).to.deep.equal([B.name, C.name]);
  });

  it("q searches the model's fields (case-insensitive) and the id", async () => {
    expect(await sites("q=ALPHA")).to.deep.equal([A.name]);
    expect(await sites("q=north")).to.deep.equal([A.name]);
    expect(await sites(`q=${C.id}`)).to.deep.equal([C.name]);
  });

  it("id and id__n", async () => {
    expect(await sites(`id=${A.id}&id=${B.id}`)).to.deep.equal([A.name, B.name]);
    expect(await sites(`id__n=${A.id}`)).to.deep.equal([B.name, C.name]);
  });

  it("FK filters by slug or UUID, <fk>_id, and __n", async () => {
    expect(await sites(`tenant=${tenant.slug}`)).to.deep.equal([A.name]);
    expect(await sites(`tenant=${tenant.id}`)).to.deep.equal([A.name]);
    expect(await sites(`tenant_id=${tenant.id}`)).to.deep.equal([A.name]);
    expect(await sites(`tenant__n=${tenant.slug}`)).to.deep.equal([B.name, C.name]);
    expect(await sites(`tenant_id__n=${tenant.id}`)).to.deep.equal([B.name, C.name]);
    expect(await sites("tenant=null")).to.deep.equal([B.name, C.name]);
  });

  it("tree FKs match descendants: region=<root> includes sites in child regions", async () => {
    expect(await sites(`region=${root.slug}`)).to.deep.equal([A.name, B.name]);
    expect(await sites(`region_id=${root.id}`)).to.deep.equal([A.name, B.name]);
    expect(await sites(`region=${child.slug}`)).to.deep.equal([A.name]);
    expect(await sites(`region__n=${root.slug}`)).to.deep.equal([C.name]);
  });

  it("tenant_group filters through the tenant, matching descendant groups", async () => {
    const mark = uniq("tgf");
    const top = (await post("/api/tenancy/tenant-groups/", { name: `${mark}-top` })).body;
    const sub = (await post("/api/tenancy/tenant-groups/", { name: `${mark}-sub`, parent: top.id })).body;
    const inTop = (await post("/api/tenancy/tenants/", { name: `${mark}-a`, group: top.id })).body;
    const inSub = (await post("/api/tenancy/tenants/", { name: `${mark}-b`, group: sub.id })).body;
    const made = await post("/api/ipam/vrfs/", [
      { name: `${mark}-1`, description: mark, tenant: inTop.id },
      { name: `${mark}-2`, description: mark, tenant: inSub.id },
      { name: `${mark}-3`, description: mark },
    ]);
    expect(made.status).to.equal(201);
    const names = async (query: string): Promise<string[]> => {
      const res = await get(`/api/ipam/vrfs/?description=${mark}&${query}`);
      expect(res.status, `${query}: ${res.text}`).to.equal(200);
      return res.body.results.map((v: Obj) => v.name).sort();
    };
    expect(await names(`tenant_group=${top.slug}`)).to.deep.equal([`${mark}-1`, `${mark}-2`]);
    expect(await names(`tenant_group=${sub.id}`)).to.deep.equal([`${mark}-2`]);
    expect(await names(`tenant_group_id=${top.id}`)).to.deep.equal([`${mark}-1`, `${mark}-2`]);
    // Negations keep the rows without a tenant, as Django's exclude() does.
    expect(await names(`tenant_group__n=${sub.slug}`)).to.deep.equal([`${mark}-1`, `${mark}-3`]);
    expect(await names(`tenant_group_id__n=${top.id}`)).to.deep.equal([`${mark}-3`]);
    await refused("/api/ipam/vrfs/?tenant_group=nosuch", "tenant_group", "Select a valid choice. nosuch is not one of the available choices.");
    await refused(`/api/ipam/vrfs/?tenant_group_id=${top.slug}`, "tenant_group_id", "Enter a valid UUID.");
    for (const route of ["dcim/sites", "ipam/prefixes", "ipam/ip-addresses"]) {
      expect((await get(`/api/${route}/?tenant_group=${top.slug}`)).status, route).to.equal(200);
    }
  });

  it("tree models filter by parent", async () => {
    const res = await get(`/api/dcim/regions/?parent=${root.slug}`);
    expect(res.status).to.equal(200);
    expect(res.body.results.map((r: Obj) => r.id)).to.deep.equal([child.id]);
  });

  it("created by date, last_updated by date-time", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await sites(`created__gte=${today}`)).to.have.length(3);
    expect(await sites(`created=${today}`)).to.have.length(3);
    expect(await sites("created__lte=2000-01-01")).to.deep.equal([]);
    const stamp = (await patch(`/api/dcim/sites/${C.id}/`, { comments: "touched" })).body.last_updated;
    expect(await sites(`last_updated=${stamp}`)).to.deep.equal([C.name]);
  });

  it("unknown parameters → 400 'Unknown filter field' (lists and details)", async () => {
    await refused("/api/dcim/sites/?bogus=1", "bogus", "Unknown filter field");
    await refused("/api/dcim/sites/?ordering=name", "ordering", "Unknown filter field");
    await refused("/api/dcim/sites/?name__xx=a", "name__xx", "Unknown filter field");
    await refused("/api/ipam/prefixes/?tenant__ic=a", "tenant__ic", "Unknown filter field");
    await refused(`/api/dcim/sites/${A.id}/?bogus=1`, "bogus", "Unknown filter field");
  });

  it("reserved parameters are not filters", async () => {
    const res = await get(`/api/dcim/sites/?description=${m}&limit=1&offset=0&brief=1&api_version=1.3&format=json`);
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(3);
  });

  it("unknown parameters on writes to a detail route → 400 and nothing changes", async () => {
    const res = await patch(`/api/dcim/sites/${C.id}/?bogus=1`, { facility: "changed" });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ bogus: ["Unknown filter field"] });
    expect((await row("dcim_site", C.id))?.facility).to.equal("");
    const gone = await del(`/api/dcim/sites/${C.id}/?bogus=1`);
    expect(gone.status).to.equal(400);
    expect(await rows("dcim_site", { id: C.id })).to.equal(1);
  });

  it("a detail route applies valid filters too: an excluded object is 404", async () => {
    const res = await get(`/api/dcim/sites/${B.id}/?status=active`);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: "Not found." });
    expect((await get(`/api/dcim/sites/${B.id}/?status=planned`)).status).to.equal(200);
    const write = await patch(`/api/dcim/sites/${B.id}/?status=active`, { facility: "filtered" });
    expect(write.status).to.equal(404);
    expect((await del(`/api/dcim/sites/${B.id}/?status=active`)).status).to.equal(404);
    expect(await row("dcim_site", B.id)).to.include({ facility: "dc-south" });
  });

  it("invalid values → 400 naming the parameter, never 5xx", async () => {
    await refused("/api/dcim/sites/?id=nope", "id", "Enter a valid UUID.");
    await refused("/api/dcim/sites/?tenant_id=nope", "tenant_id", "Enter a valid UUID.");
    await refused("/api/dcim/sites/?tenant=nosuch", "tenant", "Select a valid choice. nosuch is not one of the available choices.");
    await refused("/api/dcim/sites/?region=nosuch", "region", "Select a valid choice. nosuch is not one of the available choices.");
    await refused("/api/dcim/sites/?status=bogus", "status", "Select a valid choice. bogus is not one of the available choices.");
    await refused("/api/dcim/sites/?tag=no-such-tag", "tag", "Select a valid choice. no-such-tag is not one of the available choices.");
    await refused("/api/dcim/sites/?asn=many", "asn");
    await refused("/api/dcim/sites/?asn__gt=1e", "asn__gt");
    await refused("/api/dcim/sites/?created=yesterday", "created", "Enter a valid date.");
    await refused("/api/dcim/sites/?last_updated__gte=soon", "last_updated__gte");
    await refused("/api/dcim/sites/?name__re=(", "name__re");
    await refused("/api/dcim/sites/?name__nire=%5B", "name__nire");
    await refused("/api/ipam/prefixes/?is_pool=maybe", "is_pool");
  });

  it("values the column type cannot hold → 400, not a database error", async () => {
    await refused("/api/dcim/sites/?asn=1.5", "asn", "Enter a whole number.");
    await refused("/api/dcim/sites/?asn=1e21", "asn", "Enter a whole number.");
    await refused("/api/dcim/sites/?asn__lt=99999999999999999999", "asn__lt", "Ensure this value is less than or equal to 9223372036854775807.");
    await refused("/api/ipam/roles/?weight=1.5", "weight", "Enter a whole number.");
    await refused("/api/dcim/sites/?latitude__gt=Infinity", "latitude__gt", "Enter a number.");
    await refused("/api/dcim/sites/?created=2021-02-30", "created", "Enter a valid date.");
    await refused("/api/dcim/sites/?last_updated__gte=2020", "last_updated__gte", "Enter a valid date/time.");
    await refused("/api/dcim/sites/?last_updated__lte=1", "last_updated__lte", "Enter a valid date/time.");
    await refused("/api/dcim/sites/?name=%00", "name", "Null characters are not allowed.");
    await refused("/api/dcim/sites/?q=a%00b", "q", "Null characters are not allowed.");
    await refused("/api/dcim/sites/?tenant=%00", "tenant", "Null characters are not allowed.");
  });

  it("an integer column compares with a value wider than itself", async () => {
    const res = await get("/api/ipam/roles/?weight__lt=99999999999&limit=1");
    expect(res.status).to.equal(200);
    expect(res.body.count).to.be.greaterThan(0);
    expect(await sites("asn=4294967295")).to.deep.equal([]);
    expect(await sites("last_updated__gte=2000-01-01T00:00:00Z")).to.have.length(3);
    expect(await sites("last_updated__lte=2000-01-01 10:00")).to.deep.equal([]);
  });

  it("several bad parameters are all reported", async () => {
    const res = await get("/api/dcim/sites/?id=x&bogus=1&status=zzz");
    expect(res.status).to.equal(400);
    expect(Object.keys(res.body).sort()).to.deep.equal(["bogus", "id", "status"]);
  });
});
