// The circuits app over HTTP: providers, provider networks, circuit types, circuits and
// their terminations with Nautobot's shapes (a circuit shows its A and Z ends in the shape
// made for it; term_side is a bare value), rules and deletes; and an interface cabled to
// each end of a circuit sees the other as its connected endpoint until one end goes.
import { expect } from "chai";
import { del, get, patch, post } from "../../support/http.js";
import { rows, uniq } from "./support.js";

describe("inventory e2e: circuits", () => {
  const tag = uniq("ckt").toLowerCase();
  let site: any, provider: any, ctype: any;

  before(async () => {
    site = (await post("/api/dcim/sites/", { name: `${tag}-site`, status: "active" })).body;
    provider = (await post("/api/circuits/providers/", { name: `${tag}-Telco`, asn: 65001, portal_url: "https://portal.example.net" })).body;
    ctype = (await post("/api/circuits/circuit-types/", { name: `${tag}-Transit` })).body;
  });

  it("creates by attributes and shows Nautobot's shapes, counts and displays", async () => {
    expect(provider).to.deep.include({ asn: 65001, slug: `${tag}-telco`, circuit_count: 0, display: `${tag}-Telco` });
    const net = await post("/api/circuits/provider-networks/", { provider: { slug: provider.slug }, name: "Backbone" });
    expect(net.status, net.text).to.equal(201);
    expect(net.body.display).to.equal(`${tag}-Telco Backbone`);
    expect(Object.keys(net.body.provider).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);

    const c = await post("/api/circuits/circuits/", { cid: "CKT-1", provider: { name: provider.name }, type: ctype.id, status: "active", commit_rate: 10000 });
    expect(c.status, c.text).to.equal(201);
    expect(c.body).to.deep.include({ cid: "CKT-1", display: "CKT-1", commit_rate: 10000, termination_a: null, termination_z: null });
    expect(c.body.status).to.deep.equal({ value: "active", label: "Active" });
    expect(Object.keys(c.body.type).sort()).to.deep.equal(["display", "id", "name", "slug", "url"]);

    const a = await post("/api/circuits/circuit-terminations/", { circuit: c.body.id, term_side: "A", site: site.id, port_speed: 1000, xconnect_id: "XC-9" });
    expect(a.status, a.text).to.equal(201);
    expect(a.body).to.deep.include({ term_side: "A", display: `Termination A: ${site.name}`, port_speed: 1000, cable: null, connected_endpoint: null });
    expect(a.body.circuit).to.deep.include({ id: c.body.id, cid: "CKT-1" });
    const z = await post("/api/circuits/circuit-terminations/", { circuit: c.body.id, term_side: "Z", provider_network: net.body.id });
    expect(z.status, z.text).to.equal(201);
    expect(z.body.display).to.equal("Termination Z: Backbone");

    const circuit = (await get(`/api/circuits/circuits/${c.body.id}/`)).body;
    expect(Object.keys(circuit.termination_a).sort()).to.deep.equal(
      ["connected_endpoint", "display", "id", "location", "port_speed", "provider_network", "site", "upstream_speed", "url", "xconnect_id"],
    );
    expect(circuit.termination_a).to.deep.include({ id: a.body.id, port_speed: 1000, xconnect_id: "XC-9", provider_network: null });
    expect(circuit.termination_a.site.id).to.equal(site.id);
    expect(circuit.termination_z.provider_network).to.deep.include({ id: net.body.id, name: "Backbone" });
    expect((await get(`/api/circuits/providers/${provider.id}/`)).body.circuit_count).to.equal(1);
    expect((await get(`/api/circuits/circuit-types/?brief=1&id=${ctype.id}`)).body.results[0].circuit_count).to.equal(1);

    // Filters Nautobot's filter sets have.
    expect((await get(`/api/circuits/circuits/?provider=${provider.slug}&type=${ctype.slug}`)).body.count).to.equal(1);
    expect((await get(`/api/circuits/circuit-terminations/?circuit_id=${c.body.id}&term_side=Z`)).body.results.map((t: any) => t.id)).to.deep.equal([z.body.id]);
    expect((await get(`/api/circuits/provider-networks/?provider=${provider.slug}`)).body.count).to.equal(1);

    // Deleting: the provider is protected by its circuit; the circuit takes its terminations.
    expect((await del(`/api/circuits/providers/${provider.id}/`)).status).to.equal(409);
    expect((await del(`/api/circuits/circuits/${c.body.id}/`)).status).to.equal(204);
    expect(await rows("circuits_circuittermination", { circuit_id: c.body.id })).to.equal(0);
  });

  it("refuses a termination at both a site and a provider network, or at neither, in Nautobot's words", async () => {
    const net = (await post("/api/circuits/provider-networks/", { provider: provider.id, name: "Edge" })).body;
    const c = (await post("/api/circuits/circuits/", { cid: "CKT-2", provider: provider.id, type: ctype.id, status: "planned" })).body;
    const both = await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "A", site: site.id, provider_network: net.id });
    expect(both.status).to.equal(400);
    expect(both.body).to.deep.equal({ non_field_errors: ["A circuit termination cannot attach to both a site and a provider network."] });
    const neither = await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "A" });
    expect(neither.body).to.deep.equal({ non_field_errors: ["A circuit termination must attach to either a site or a provider network."] });
    const side = await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "B", site: site.id });
    expect(side.body).to.deep.equal({ term_side: ['"B" is not a valid choice.'] });
    expect(await rows("circuits_circuittermination", { circuit_id: c.id })).to.equal(0);
    // A termination in a provider network takes no cable.
    const inNet = (await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "Z", provider_network: net.id })).body;
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-role2` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-m2` })).body;
    const dtype = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "CPE" })).body;
    const dev = (await post("/api/dcim/devices/", { name: `${tag}-cpe`, device_type: dtype.id, device_role: role.id, site: site.id, status: "active" })).body;
    const eth = (await post("/api/dcim/interfaces/", { device: dev.id, name: "eth0", type: "1000base-t" })).body;
    const cab = await post("/api/dcim/cables/", { termination_a_type: "dcim.interface", termination_a_id: eth.id, termination_b_type: "circuits.circuittermination", termination_b_id: inNet.id, status: "connected" });
    expect(cab.status).to.equal(400);
    expect(cab.body).to.deep.equal({ termination_b_id: ["Circuit terminations attached to a provider network may not be cabled."] });
  });

  it("interfaces cabled to the two ends of a circuit see each other through it", async () => {
    const role = (await post("/api/dcim/device-roles/", { name: `${tag}-role` })).body;
    const maker = (await post("/api/dcim/manufacturers/", { name: `${tag}-m` })).body;
    const dtype = (await post("/api/dcim/device-types/", { manufacturer: maker.id, model: "PE" })).body;
    const device = async (name: string) => (await post("/api/dcim/devices/", { name: `${tag}-${name}`, device_type: dtype.id, device_role: role.id, site: site.id, status: "active" })).body;
    const [pe1, pe2] = [await device("pe1"), await device("pe2")];
    const [i1, i2] = [
      (await post("/api/dcim/interfaces/", { device: pe1.id, name: "xe-0/0/0", type: "10gbase-x-sfpp" })).body,
      (await post("/api/dcim/interfaces/", { device: pe2.id, name: "xe-0/0/0", type: "10gbase-x-sfpp" })).body,
    ];
    const c = (await post("/api/circuits/circuits/", { cid: "CKT-3", provider: provider.id, type: ctype.id, status: "active" })).body;
    const ta = (await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "A", site: site.id })).body;
    const cable = (a: any, t: any) => post("/api/dcim/cables/", {
      termination_a_type: "dcim.interface", termination_a_id: a.id, termination_b_type: "circuits.circuittermination", termination_b_id: t.id, status: "connected",
    });
    expect((await cable(i1, ta)).status).to.equal(201);
    // Only one end exists: the path ends at the termination.
    let seen = (await get(`/api/dcim/interfaces/${i1.id}/`)).body;
    expect(seen.connected_endpoint_type).to.equal("circuits.circuittermination");
    expect(seen.connected_endpoint).to.deep.include({ id: ta.id, term_side: "A" });
    expect(seen.cable_peer).to.deep.include({ id: ta.id });

    const tz = (await post("/api/circuits/circuit-terminations/", { circuit: c.id, term_side: "Z", site: site.id })).body;
    expect((await cable(i2, tz)).status).to.equal(201);
    seen = (await get(`/api/dcim/interfaces/${i1.id}/`)).body;
    expect(seen.connected_endpoint_type).to.equal("dcim.interface");
    expect(seen.connected_endpoint).to.deep.include({ id: i2.id });
    expect(seen.connected_endpoint_reachable).to.equal(true);
    expect((await get(`/api/dcim/interfaces/${i2.id}/`)).body.connected_endpoint.id).to.equal(i1.id);
    const term = (await get(`/api/circuits/circuit-terminations/${ta.id}/`)).body;
    expect(term.cable_peer).to.deep.include({ id: i1.id });
    expect((await get(`/api/circuits/circuits/${c.id}/`)).body.termination_a.connected_endpoint).to.deep.include({ id: i1.id });

    // The Z end goes (and its cable with it): the A side's path ends at its termination again.
    expect((await del(`/api/circuits/circuit-terminations/${tz.id}/`)).status).to.equal(204);
    seen = (await get(`/api/dcim/interfaces/${i1.id}/`)).body;
    expect(seen.connected_endpoint).to.deep.include({ id: ta.id });
    expect((await get(`/api/dcim/interfaces/${i2.id}/`)).body).to.deep.include({ cable: null, connected_endpoint: null });
    expect((await patch(`/api/circuits/circuits/${c.id}/`, { description: "kept" })).body.termination_z).to.equal(null);
  });
});
