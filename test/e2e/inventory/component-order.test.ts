// Device components and VM interfaces in Nautobot's order: by their parent as the parent
// orders (a device's or virtual machine's name; a device type's manufacturer name, then
// model), then by their own name. Not by the parent's id, which is random: the parents here
// are named so that their ids sort the other way. A page of many is read by walking indexes.
import { expect } from "chai";
import { get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { uniq } from "./support.js";

describe("inventory e2e: component ordering by parent name", () => {
  const tag = uniq("cord").toLowerCase();
  let site: any, type: any, role: any, maker: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  /** Two objects made at `path`, renamed so that the one with the greater id has the lesser name. */
  const pair = async (path: string, key: string, body: Record<string, unknown>) => {
    const [x, y] = [await made(path, { ...body, [key]: `${tag}-x` }), await made(path, { ...body, [key]: `${tag}-y` })].sort((a, b) => (a.id < b.id ? -1 : 1));
    await patch(`${path}${x.id}/`, { [key]: `${tag}-zz` });
    await patch(`${path}${y.id}/`, { [key]: `${tag}-aa` });
    return { first: y, second: x };
  };

  before(async () => {
    site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag}-box` });
    role = await made("/api/dcim/device-roles/", { name: `${tag}-role` });
  });

  it("lists interfaces by their device's name, then their own name, whatever the devices' ids", async () => {
    const { first, second } = await pair("/api/dcim/devices/", "name", { device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    // The second device's interfaces have the lesser names: ordering by name alone fails too.
    for (const [device, name] of [[first, "b1"], [second, "a1"], [first, "b0"], [second, "a0"]]) {
      await made("/api/dcim/interfaces/", { device: device.id, name, type: "1000base-t" });
    }
    const list = (await get(`/api/dcim/interfaces/?device_id=${first.id}&device_id=${second.id}&limit=10`)).body.results;
    expect(list.map((i: any) => `${i.device.name}/${i.name}`)).to.deep.equal([`${tag}-aa/b0`, `${tag}-aa/b1`, `${tag}-zz/a0`, `${tag}-zz/a1`]);
    const page = (await get(`/api/dcim/interfaces/?device_id=${first.id}&device_id=${second.id}&limit=2&offset=1`)).body.results;
    expect(page.map((i: any) => `${i.device.name}/${i.name}`)).to.deep.equal([`${tag}-aa/b1`, `${tag}-zz/a0`]);
    for (const [device, name] of [[second, "c0"], [first, "c1"]]) await made("/api/dcim/console-ports/", { device: device.id, name });
    const ports = (await get(`/api/dcim/console-ports/?device_id=${first.id}&device_id=${second.id}`)).body.results;
    expect(ports.map((i: any) => i.device.name)).to.deep.equal([`${tag}-aa`, `${tag}-zz`]);
  });

  it("lists VM interfaces by their virtual machine's name, then their own name", async () => {
    const clusterType = await made("/api/virtualization/cluster-types/", { name: `${tag}-ctype` });
    const cluster = await made("/api/virtualization/clusters/", { name: `${tag}-cluster`, type: clusterType.id });
    const { first, second } = await pair("/api/virtualization/virtual-machines/", "name", { cluster: cluster.id, status: "active" });
    for (const [vm, name] of [[first, "b0"], [second, "a0"]]) await made("/api/virtualization/interfaces/", { virtual_machine: vm.id, name });
    const list = (await get(`/api/virtualization/interfaces/?virtual_machine_id=${first.id}&virtual_machine_id=${second.id}`)).body.results;
    expect(list.map((i: any) => `${i.virtual_machine.name}/${i.name}`)).to.deep.equal([`${tag}-aa/b0`, `${tag}-zz/a0`]);
  });

  it("lists device types by manufacturer name, then model; their templates likewise", async () => {
    const { first, second } = await pair("/api/dcim/manufacturers/", "name", {});
    const types = [await made("/api/dcim/device-types/", { manufacturer: first.id, model: `${tag}-m2` }),
      await made("/api/dcim/device-types/", { manufacturer: second.id, model: `${tag}-m1` }),
      await made("/api/dcim/device-types/", { manufacturer: first.id, model: `${tag}-m1` })];
    const listed = (await get(`/api/dcim/device-types/?manufacturer_id=${first.id}&manufacturer_id=${second.id}`)).body.results;
    expect(listed.map((t: any) => `${t.manufacturer.name}/${t.model}`)).to.deep.equal([`${tag}-aa/${tag}-m1`, `${tag}-aa/${tag}-m2`, `${tag}-zz/${tag}-m1`]);
    for (const t of [...types].reverse()) await made("/api/dcim/interface-templates/", { device_type: t.id, name: "eth0", type: "1000base-t" });
    const templates = (await get(`/api/dcim/interface-templates/?devicetype_id=${types.map((t) => t.id).join("&devicetype_id=")}`)).body.results;
    expect(templates.map((t: any) => t.device_type.model)).to.deep.equal([`${tag}-m1`, `${tag}-m2`, `${tag}-m1`]);
    expect(templates.map((t: any) => t.device_type.id)).to.deep.equal([types[2].id, types[0].id, types[1].id]);
  });

  it("a first page of many interfaces walks the device-name index, sorting one device's interfaces at a time, not the table", async function () {
    // The plan checked is PostgreSQL's.
    const { db, engine } = await startTestServer();
    if (engine !== "postgresql") this.skip();
    const model = await made("/api/dcim/devices/", { name: `${tag}-model`, device_type: type.id, device_role: role.id, site: site.id, status: "active" });
    // Many rows, made directly: only the plan matters here. 200 devices of 100 interfaces.
    await db.raw(`INSERT INTO dcim_device (name, device_type_id, device_role_id, site_id, status)
      SELECT ? || '-d' || lpad(i::text, 3, '0'), device_type_id, device_role_id, site_id, status FROM dcim_device, generate_series(0, 199) AS i WHERE id = ?`, [tag, model.id]);
    await db.raw(`INSERT INTO dcim_interface (device_id, name, type, status)
      SELECT d.id, 'eth' || i, '1000base-t', 'active' FROM dcim_device d, generate_series(0, 99) AS i WHERE d.name LIKE ? || '-d%'`, [tag]);
    try {
      await db.raw("ANALYZE dcim_device");
      await db.raw("ANALYZE dcim_interface");
      const seen: Array<{ sql: string; bindings: unknown[] }> = [];
      const listen = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
      db.on("query", listen);
      try {
        expect((await get("/api/dcim/interfaces/?limit=50")).status).to.equal(200);
      } finally {
        db.removeListener("query", listen);
      }
      const read = seen.find((q) => q.sql.includes('"dcim_interface"'))!;
      const literal = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
      const sql = read.sql.replace(/\$(\d+)/g, (_, n) => literal(read.bindings[Number(n) - 1])).replace(/\?/g, "\\?");
      const plan = (await db.raw(`EXPLAIN ${sql}`)).rows.map((r: any) => r["QUERY PLAN"]).join("\n");
      if (process.env.SHOW_PLAN) console.log(plan);
      // Devices in name order, each one's interfaces by its key, sorted a device at a time.
      expect(plan).to.match(/Incremental Sort[^\n]*\n\s*Sort Key: t0_o1[^\n]*\n\s*Presorted Key: t0_o1[^\n]*\.name\n\s*->  Nested Loop/);
      expect(plan).to.include("Index Only Scan using dcim_device_ordering_idx");
    } finally {
      await db.raw("DELETE FROM dcim_interface WHERE device_id IN (SELECT id FROM dcim_device WHERE name LIKE ? || '-d%')", [tag]);
      await db.raw("DELETE FROM dcim_device WHERE name LIKE ? || '-d%'", [tag]);
    }
  });
});
