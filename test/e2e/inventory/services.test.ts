// IPAM services over HTTP, as Nautobot 1.5.24 answers API 1.2/1.3: a service on a device or a
// virtual machine (exactly one), its ports read as DRF's ListField of bounded integers reads them
// and refused item by item, the model's blank protocol and ports, its display and brief forms,
// the filter set by Nautobot's names (`port` holds one port among others) and the machines'
// filters by service, the order by protocol then ports, and what happens when its device,
// machine or addresses are deleted.
import { expect } from "chai";
import { call, del, get, patch, post, put } from "../../support/http.js";
import { statements } from "../../support/statements.js";
import { MISSING_ID, row, rows, uniq } from "./support.js";

const SERVICES = "/api/ipam/services/";

describe("inventory e2e: IPAM services", () => {
  const tag = uniq("svc").toLowerCase();
  let device: any, other: any, vm: any, spare: any, address: any, second: any, foreign: any, label: any;

  const made = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    expect(res.status, `${path} ${res.text}`).to.equal(201);
    return res.body;
  };
  const service = (body: Record<string, unknown>) => post(SERVICES, { device: device.id, name: `${tag}-bad`, protocol: "tcp", ports: [22], ...body });
  const names = async (query: string) => (await get(`${SERVICES}?name__isw=${tag}&${query}`)).body.results.map((s: any) => s.name);

  before(async () => {
    const site = await made("/api/dcim/sites/", { name: `${tag}-site`, status: "active" });
    const maker = await made("/api/dcim/manufacturers/", { name: `${tag}-maker` });
    const type = await made("/api/dcim/device-types/", { manufacturer: maker.id, model: `${tag} Box` });
    const role = await made("/api/dcim/device-roles/", { name: `${tag}-server` });
    const onSite = { device_type: type.id, device_role: role.id, site: site.id, status: "active" };
    device = await made("/api/dcim/devices/", { name: `${tag}-dev1`, ...onSite });
    other = await made("/api/dcim/devices/", { name: `${tag}-dev2`, ...onSite });
    const ctype = await made("/api/virtualization/cluster-types/", { name: `${tag} KVM` });
    const cluster = await made("/api/virtualization/clusters/", { name: `${tag}-c1`, type: ctype.id });
    vm = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vm1`, cluster: cluster.id, status: "active" });
    spare = await made("/api/virtualization/virtual-machines/", { name: `${tag}-vm2`, cluster: cluster.id, status: "active" });
    address = await made("/api/ipam/ip-addresses/", { address: "10.78.0.1/24", status: "active" });
    second = await made("/api/ipam/ip-addresses/", { address: "10.78.0.2/24", status: "active", dns_name: `${tag}.example.net` });
    // Nautobot does not ask that a service's addresses be its parent's: any address will do.
    foreign = await made("/api/ipam/ip-addresses/", { address: "2001:db8:78::1/64", status: "active" });
    label = await made("/api/extras/tags/", { name: `${tag}-monitored` });
  });

  it("a service on a device: Nautobot's shape, ports as written (text and whole floats too), display in runs", async () => {
    const res = await post(SERVICES, {
      device: { name: device.name }, name: `${tag}-web`, protocol: "tcp", ports: ["443", 80, 81.0, " 82 ", 8080, "22.00"],
      ipaddresses: [address.id, { address: second.address }], description: "front door", tags: [label.id],
    });
    expect(res.status, res.text).to.equal(201);
    const web = res.body;
    expect(Object.keys(web).sort()).to.deep.equal(["computed_fields", "created", "custom_fields", "description", "device", "display", "id", "ipaddresses",
      "last_updated", "name", "notes_url", "ports", "protocol", "relationships", "tags", "url", "virtual_machine"]);
    expect(web).to.deep.include({ name: `${tag}-web`, ports: [443, 80, 81, 82, 8080, 22], virtual_machine: null, description: "front door", custom_fields: {} });
    expect(web.display).to.equal(`${tag}-web (TCP/22, 80-82, 443, 8080)`);
    expect(web.protocol).to.deep.equal({ value: "tcp", label: "TCP" });
    expect(web.device).to.deep.equal({ id: device.id, url: device.url, display: device.name, name: device.name });
    expect(web.ipaddresses).to.deep.equal([address, second].map((a) => ({ id: a.id, url: a.url, display: a.address, family: 4, address: a.address })));
    expect(web.tags.map((t: any) => t.id)).to.deep.equal([label.id]);
    expect(res.headers.get("location")).to.equal(web.url);
    // The brief form is Nautobot's NestedServiceSerializer: there the protocol is DRF's own, a bare value.
    const brief = (await get(`${SERVICES}${web.id}/?brief=1`)).body;
    expect(brief).to.deep.equal({ id: web.id, url: web.url, display: web.display, name: web.name, protocol: "tcp", ports: web.ports });
    // Repeated ports stay separate items, as array_to_string shows them.
    const twice = await made(SERVICES, { device: device.id, name: `${tag}-twice`, protocol: "udp", ports: [23, 22, 22] });
    expect(twice.display).to.equal(`${tag}-twice (UDP/22, 22-23)`);
    expect((await del(`${SERVICES}${twice.id}/`)).status).to.equal(204);
  });

  it("a service on a virtual machine, with an address of anything", async () => {
    const dns = await made(SERVICES, { virtual_machine: { name: vm.name }, name: `${tag}-dns`, protocol: "udp", ports: [53], ipaddresses: [foreign.id] });
    expect(dns.device).to.equal(null);
    expect(dns.virtual_machine).to.deep.equal({ id: vm.id, url: vm.url, display: vm.name, name: vm.name });
    expect(dns.display).to.equal(`${tag}-dns (UDP/53)`);
    expect(dns.ipaddresses.map((a: any) => a.address)).to.deep.equal([foreign.address]);
  });

  it("refuses a service on neither or both parents, and a blank protocol or port list, in the model's words", async () => {
    const refused: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ device: null }, { __all__: ["A service must be associated with either a device or a virtual machine."] }],
      [{ device: undefined }, { __all__: ["A service must be associated with either a device or a virtual machine."] }],
      [{ virtual_machine: vm.id }, { __all__: ["A service cannot be associated with both a device and a virtual machine."] }],
      // The serializer lets both through; the model's full_clean does not, and says so beside the parent rule.
      [{ protocol: undefined, ports: [], device: null }, {
        protocol: ["This field cannot be blank."], ports: ["This field cannot be blank."],
        __all__: ["A service must be associated with either a device or a virtual machine."],
      }],
      // A field error stops before the model's rules.
      [{ protocol: "icmp", device: null }, { protocol: ["icmp is not a valid choice."] }],
      [{ protocol: { value: "tcp" } }, { protocol: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'] }],
      [{ name: undefined, ports: undefined }, { name: ["This field is required."], ports: ["This field is required."] }],
      [{ name: "x".repeat(101) }, { name: ["Ensure this field has no more than 100 characters."] }],
      [{ name: "" }, { name: ["This field may not be blank."] }],
      [{ device: MISSING_ID }, { device: [`Related object not found using the provided ID: ${MISSING_ID}`] }],
      [{ virtual_machine: { name: "no-such-vm" } }, { virtual_machine: ["Related object not found using the provided attributes: {'name': 'no-such-vm'}"] }],
      [{ ipaddresses: [MISSING_ID] }, { ipaddresses: [`Invalid pk \"${MISSING_ID}\" - object does not exist.`] }],
      [{ description: "x".repeat(201) }, { description: ["Ensure this field has no more than 200 characters."] }],
    ];
    for (const [body, errors] of refused) {
      const res = await service(body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    expect(await rows("ipam_service", { name: `${tag}-bad` })).to.equal(0);
  });

  it("refuses ports as DRF's ListField of integers 1–65535 does: the list's type, then each item under its index", async () => {
    const refused: Array<[unknown, unknown]> = [
      [null, ["This field may not be null."]],
      ["80", ['Expected a list of items but got type "str".']],
      [80, ['Expected a list of items but got type "int".']],
      [8.5, ['Expected a list of items but got type "float".']],
      [true, ['Expected a list of items but got type "bool".']],
      [{ 0: 80 }, ['Expected a list of items but got type "dict".']],
      [[22, 0, 80, 65536, 65535], {
        1: ["Ensure this value is greater than or equal to 1."], 3: ["Ensure this value is less than or equal to 65535."],
      }],
      [["x", null, true, 1.5, "8.5", [80], { port: 80 }, -1], {
        0: ["A valid integer is required."], 1: ["This field may not be null."], 2: ["A valid integer is required."], 3: ["A valid integer is required."],
        4: ["A valid integer is required."], 5: ["A valid integer is required."], 6: ["A valid integer is required."], 7: ["Ensure this value is greater than or equal to 1."],
      }],
      [["1".repeat(1001)], { 0: ["String value too large."] }],
    ];
    for (const [ports, errors] of refused) {
      const res = await service({ ports });
      expect([res.status, res.body], JSON.stringify(ports)).to.deep.equal([400, { ports: errors }]);
    }
    expect(await rows("ipam_service", { name: `${tag}-bad` })).to.equal(0);
    // Python's int() takes underscores between digits; a one-item list is as good as any.
    const grouped = await made(SERVICES, { device: device.id, name: `${tag}-grouped`, protocol: "tcp", ports: ["8_080"] });
    expect(grouped.ports).to.deep.equal([8080]);
    expect((await del(`${SERVICES}${grouped.id}/`)).status).to.equal(204);
  });

  it("updates: the rules hold on the merged object; PUT and PATCH replace ports and addresses", async () => {
    const web = (await get(`${SERVICES}?name=${tag}-web`)).body.results[0];
    const at = `${SERVICES}${web.id}/`;
    const refused: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ virtual_machine: vm.id }, { __all__: ["A service cannot be associated with both a device and a virtual machine."] }],
      [{ device: null }, { __all__: ["A service must be associated with either a device or a virtual machine."] }],
      [{ ports: [] }, { ports: ["This field cannot be blank."] }],
    ];
    for (const [body, errors] of refused) {
      const res = await patch(at, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([400, errors]);
    }
    const moved = await patch(at, { device: null, virtual_machine: vm.id, ports: [8443], ipaddresses: [] });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body).to.deep.include({ device: null, ports: [8443], ipaddresses: [], display: `${tag}-web (TCP/8443)` });
    expect(moved.body.virtual_machine.id).to.equal(vm.id);
    const replaced = await put(at, { device: device.id, virtual_machine: null, name: `${tag}-web`, protocol: "tcp", ports: [443, 80], ipaddresses: [address.id] });
    expect(replaced.status, replaced.text).to.equal(200);
    expect(replaced.body).to.deep.include({ ports: [443, 80], display: `${tag}-web (TCP/80, 443)`, virtual_machine: null, description: "front door" });
    expect(replaced.body.ipaddresses.map((a: any) => a.id)).to.deep.equal([address.id]);
    expect((await patch(at, { ipaddresses: [address.id, second.id] })).status).to.equal(200);
  });

  it("OPTIONS: ports a list of bounded integers, the protocol optional with its choices", async () => {
    const post = (await call("OPTIONS", SERVICES)).body.actions.POST;
    expect(post.ports).to.deep.equal({
      type: "list", required: true, read_only: false, label: "Ports",
      child: { type: "integer", required: true, read_only: false, min_value: 1, max_value: 65535 },
    });
    expect(post.protocol).to.deep.equal({
      type: "field", required: false, read_only: false, label: "Protocol", choices: [{ value: "tcp", display: "TCP" }, { value: "udp", display: "UDP" }],
    });
    expect([post.device.required, post.virtual_machine.required, post.name.required]).to.deep.equal([false, false, true]);
  });

  it("filters by Nautobot's names: q, parents by id or name, one port, protocol, name lookups, tag", async () => {
    await made(SERVICES, { device: other.id, name: `${tag}-ssh`, protocol: "tcp", ports: [22] });
    const dns = (await get(`${SERVICES}?name=${tag}-dns`)).body.results[0];
    expect(await names("")).to.deep.equal([`${tag}-ssh`, `${tag}-web`, `${tag}-dns`]);
    expect(await names("q=WEB")).to.deep.equal([`${tag}-web`]);
    expect(await names("q=front+door")).to.deep.equal([`${tag}-web`]);
    expect(await names(`q=${dns.id}`)).to.deep.equal([`${tag}-dns`]);
    expect(await names(`device=${device.name}`)).to.deep.equal([`${tag}-web`]);
    expect(await names(`device=${other.id}&device=${device.name}`)).to.deep.equal([`${tag}-ssh`, `${tag}-web`]);
    expect(await names(`device_id=${other.id}`)).to.deep.equal([`${tag}-ssh`]);
    expect(await names(`device__n=${other.name}`)).to.deep.equal([`${tag}-web`, `${tag}-dns`]);
    expect(await names("device=null")).to.deep.equal([`${tag}-dns`]);
    expect(await names(`virtual_machine=${vm.name}`)).to.deep.equal([`${tag}-dns`]);
    expect(await names(`virtual_machine_id=${vm.id}`)).to.deep.equal([`${tag}-dns`]);
    expect(await names(`virtual_machine_id__n=${vm.id}`)).to.deep.equal([`${tag}-ssh`, `${tag}-web`]);
    expect(await names("protocol=udp")).to.deep.equal([`${tag}-dns`]);
    expect(await names("protocol__n=udp")).to.deep.equal([`${tag}-ssh`, `${tag}-web`]);
    expect(await names(`name__ic=${tag}-W`)).to.deep.equal([`${tag}-web`]);
    expect(await names(`tag=${label.slug}`)).to.deep.equal([`${tag}-web`]);
    expect(await names(`id=${dns.id}`)).to.deep.equal([`${tag}-dns`]);
    // `port` holds one port among the service's; Django's DecimalField reads it and the lookup
    // truncates it to an integer; a repeated one counts only its last value.
    expect(await names("port=80")).to.deep.equal([`${tag}-web`]);
    expect(await names("port=443.9")).to.deep.equal([`${tag}-web`]);
    expect(await names("port=0.53e2")).to.deep.equal([`${tag}-dns`]);
    expect(await names("port=80&port=22")).to.deep.equal([`${tag}-ssh`]);
    expect(await names("port=0")).to.deep.equal([]);
    expect(await names("port=1e999")).to.deep.equal([]);
    expect(await names("port=")).to.have.length(3);
    const refused: Array<[string, Record<string, string[]>]> = [
      ["port=abc", { port: ["Enter a number."] }],
      ["port=NaN", { port: ["Enter a number."] }],
      ["protocol=icmp", { protocol: ["Select a valid choice. icmp is not one of the available choices."] }],
      ["device=no-such-device", { device: ["Select a valid choice. no-such-device is not one of the available choices."] }],
      ["virtual_machine_id=x", { virtual_machine_id: ["Enter a valid UUID."] }],
      // Nautobot's filter set has no filter of these fields.
      ["ports=80", { ports: ["Unknown filter field"] }],
      [`ipaddresses=${address.id}`, { ipaddresses: [`Unknown filter field`] }],
      ["description=front", { description: ["Unknown filter field"] }],
    ];
    for (const [query, errors] of refused) {
      const res = await get(`${SERVICES}?${query}`);
      expect([res.status, res.body], query).to.deep.equal([400, errors]);
    }
    // Virtual machines are found by their services (Nautobot's VirtualMachineFilterSet; devices have no such filter).
    const machines = async (query: string) => (await get(`/api/virtualization/virtual-machines/?name__isw=${tag}&${query}`)).body.results.map((v: any) => v.name);
    expect(await machines("has_services=true")).to.deep.equal([vm.name]);
    expect(await machines("has_services=false")).to.deep.equal([spare.name]);
    expect(await machines(`services=${tag}-dns`)).to.deep.equal([vm.name]);
    expect(await machines(`services=${dns.id}`)).to.deep.equal([vm.name]);
    expect(await machines(`services__n=${tag}-dns`)).to.deep.equal([spare.name]);
    expect((await get("/api/virtualization/virtual-machines/?services=no-such-service")).body).to.deep.equal({
      services: ["Select a valid choice. no-such-service is not one of the available choices."],
    });
    expect((await get("/api/dcim/devices/?has_services=true")).body).to.deep.equal({ has_services: ["Unknown filter field"] });
    // One statement reads the list, parents and addresses and all.
    const counted = await statements(`${SERVICES}?name__isw=${tag}`);
    expect(counted.sql, counted.sql.join("\n")).to.have.length(1);
  });

  it("orders by protocol, then ports as Nautobot's JSON column orders them (shorter lists first)", async () => {
    const order = `${tag}-order`;
    const lists: Array<[string, string, number[]]> = [["a", "udp", [53]], ["b", "tcp", [22, 80]], ["c", "tcp", [443]], ["d", "tcp", [80]], ["e", "tcp", [22, 23]]];
    for (const [suffix, protocol, ports] of lists) await made(SERVICES, { device: device.id, name: `${order}-${suffix}`, protocol, ports });
    const listed = (await get(`${SERVICES}?name__isw=${order}`)).body.results.map((s: any) => s.name.slice(-1));
    expect(listed).to.deep.equal(["d", "c", "e", "b", "a"]);
    const gone = await del(SERVICES, (await get(`${SERVICES}?name__isw=${order}`)).body.results.map((s: any) => ({ id: s.id })));
    expect(gone.status).to.equal(204);
  });

  it("deleting an address takes it off its services; deleting a device or machine deletes theirs", async () => {
    const web = (await get(`${SERVICES}?name=${tag}-web`)).body.results[0];
    expect(web.ipaddresses.map((a: any) => a.id)).to.deep.equal([address.id, second.id]);
    expect((await del(`/api/ipam/ip-addresses/${second.id}/`)).status).to.equal(204);
    expect((await get(`${SERVICES}${web.id}/`)).body.ipaddresses.map((a: any) => a.id)).to.deep.equal([address.id]);

    const dns = (await get(`${SERVICES}?name=${tag}-dns`)).body.results[0];
    // A service deleted along with its machine leaves no tag assignment behind.
    const label = (await post("/api/extras/tags/", { name: `${tag}-label` })).body;
    expect((await patch(`${SERVICES}${dns.id}/`, { tags: [label.id] })).status).to.equal(200);
    expect(await rows("extras_tag_assignment", { object_id: dns.id })).to.equal(1);
    expect((await del(`/api/virtualization/virtual-machines/${vm.id}/`)).status).to.equal(204);
    expect(await row("ipam_service", dns.id)).to.equal(undefined);
    expect(await rows("extras_tag_assignment", { object_id: dns.id })).to.equal(0);
    expect(await rows("ipam_service_ipaddresses", { source_id: dns.id })).to.equal(0);
    expect((await get(`/api/ipam/ip-addresses/${foreign.id}/`)).status).to.equal(200);

    expect((await del(`/api/dcim/devices/${device.id}/`)).status).to.equal(204);
    expect(await row("ipam_service", web.id)).to.equal(undefined);
    expect(await names("")).to.deep.equal([`${tag}-ssh`]);
  });
});
