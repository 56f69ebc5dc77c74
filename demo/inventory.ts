// Demo data for the inventory API: a small, realistic network loaded by `make run`.
import type { Fixture } from "../runtime/fixtures.js";

const regions: Fixture[] = [
  { model: "dcim.region", data: { name: "Europe", slug: "europe" } },
  { model: "dcim.region", data: { name: "Germany", parent: { slug: "europe" } } },
  { model: "dcim.region", data: { name: "North America", slug: "north-america" } },
];

const tenancy: Fixture[] = [
  { model: "tenancy.tenantgroup", data: { name: "Customers" } },
  { model: "tenancy.tenant", data: { name: "Acme Corp", group: { slug: "customers" } } },
  { model: "tenancy.tenant", data: { name: "Globex", group: { slug: "customers" } } },
];

const tags: Fixture[] = [
  // Written through API 1.2, which gives a tag every taggable content type.
  { model: "extras.tag", version: "1.2", data: { name: "Production", color: "2196f3" } },
  { model: "extras.tag", version: "1.2", data: { name: "Lab", color: "ff9800" } },
];

const sites: Fixture[] = [
  { model: "dcim.site", data: { name: "Berlin DC1", status: "active", region: { slug: "germany" }, tenant: { slug: "acme-corp" }, facility: "BER1", asn: 64512, time_zone: "Europe/Berlin", latitude: "52.520008", longitude: "13.404954", tags: [{ slug: "production" }] } },
  { model: "dcim.site", data: { name: "Frankfurt DC2", status: "planned", region: { slug: "germany" }, tenant: { slug: "globex" } } },
  { model: "dcim.site", data: { name: "New York Lab", status: "active", region: { slug: "north-america" }, tags: [{ slug: "lab" }] } },
];

const ipam: Fixture[] = [
  { model: "ipam.rir", data: { name: "RFC 1918", is_private: true, description: "Private IPv4 space" } },
  { model: "ipam.rir", data: { name: "RIPE NCC" } },
  { model: "ipam.aggregate", data: { prefix: "192.168.0.0/16", rir: { slug: "rfc-1918" }, date_added: "2020-01-15" } },
  { model: "ipam.aggregate", data: { prefix: "2001:db8::/32", rir: { slug: "ripe-ncc" }, tenant: { slug: "acme-corp" }, description: "Documentation space" } },
  { model: "ipam.routetarget", data: { name: "64512:1", tenant: { slug: "acme-corp" }, description: "Customer A routes" } },
  { model: "ipam.routetarget", data: { name: "64512:100", description: "Management routes" } },
  { model: "ipam.vrf", data: { name: "Customer A", rd: "64512:1", tenant: { slug: "acme-corp" }, import_targets: [{ name: "64512:1" }, { name: "64512:100" }], export_targets: [{ name: "64512:1" }] } },
  { model: "ipam.vrf", data: { name: "Management", rd: "64512:100", import_targets: [{ name: "64512:100" }], export_targets: [{ name: "64512:100" }] } },
  // A relationship defined at run time, shown with ?include=relationships on sites and VRFs.
  { model: "extras.relationship", data: { name: "Site VRFs", type: "one-to-many", source_type: "dcim.site", destination_type: "ipam.vrf", source_label: "VRFs hosted", destination_label: "Hosting site" } },
  {
    model: "extras.relationshipassociation",
    data: { relationship: { slug: "site_vrfs" }, source_type: "dcim.site", destination_type: "ipam.vrf" },
    ids: { source_id: { model: "dcim.site", match: { name: "Berlin DC1" } }, destination_id: { model: "ipam.vrf", match: { name: "Customer A" } } },
  },
  { model: "ipam.role", data: { name: "Production", weight: 100 } },
  { model: "ipam.role", data: { name: "Management" } },
  { model: "ipam.vlangroup", data: { name: "Berlin Core", site: { slug: "berlin-dc1" } } },
  { model: "ipam.vlan", data: { vid: 10, name: "Servers", site: { slug: "berlin-dc1" }, group: { slug: "berlin-core" }, status: "active", role: { slug: "production" }, tenant: { slug: "acme-corp" } } },
  { model: "ipam.vlan", data: { vid: 100, name: "Management", site: { slug: "berlin-dc1" }, group: { slug: "berlin-core" }, status: "active", role: { slug: "management" } } },
  { model: "ipam.vlan", data: { vid: 999, name: "Quarantine", status: "reserved", description: "Not routed anywhere" } },
  { model: "ipam.prefix", data: { prefix: "10.0.0.0/8", status: "container", description: "Private space" } },
  { model: "ipam.prefix", data: { prefix: "10.1.0.0/16", status: "active", site: { slug: "berlin-dc1" }, role: { slug: "production" }, tags: [{ slug: "production" }] } },
  { model: "ipam.prefix", data: { prefix: "10.1.1.0/24", status: "active", site: { slug: "berlin-dc1" }, vrf: { rd: "64512:1" }, tenant: { slug: "acme-corp" }, vlan: { vid: 10, name: "Servers" } } },
  { model: "ipam.prefix", data: { prefix: "10.2.0.0/16", status: "reserved", site: { slug: "frankfurt-dc2" } } },
  { model: "ipam.prefix", data: { prefix: "192.168.100.0/24", status: "active", vrf: { rd: "64512:100" }, role: { slug: "management" }, is_pool: true } },
  { model: "ipam.prefix", data: { prefix: "2001:db8::/32", status: "container" } },
  { model: "ipam.prefix", data: { prefix: "2001:db8:1::/48", status: "active", site: { slug: "new-york-lab" }, tags: [{ slug: "lab" }] } },
  { model: "ipam.ipaddress", data: { address: "10.1.1.1/24", status: "active", vrf: { rd: "64512:1" }, dns_name: "gw.ber1.example.net", role: "vrrp" } },
  { model: "ipam.ipaddress", data: { address: "10.1.1.10/24", status: "active", vrf: { rd: "64512:1" }, dns_name: "web1.ber1.example.net" } },
  { model: "ipam.ipaddress", data: { address: "192.168.100.5/24", status: "dhcp", vrf: { rd: "64512:100" } } },
  { model: "ipam.ipaddress", data: { address: "2001:db8:1::1/64", status: "active", description: "Lab router" } },
];

const locations: Fixture[] = [
  { model: "dcim.locationtype", data: { name: "Building", content_types: ["dcim.rackgroup", "dcim.powerpanel", "ipam.prefix"] } },
  { model: "dcim.locationtype", data: { name: "Floor", parent: { slug: "building" }, content_types: ["dcim.rackgroup", "dcim.rack", "dcim.device"] } },
  { model: "dcim.location", data: { name: "BER1 Main", location_type: { slug: "building" }, site: { slug: "berlin-dc1" }, status: "active" } },
  { model: "dcim.location", data: { name: "Ground Floor", location_type: { slug: "floor" }, parent: { slug: "ber1-main" }, status: "active" } },
];

const racks: Fixture[] = [
  { model: "dcim.rackrole", data: { name: "Network", color: "2196f3" } },
  { model: "dcim.rackrole", data: { name: "Compute", color: "4caf50" } },
  { model: "dcim.rackgroup", data: { name: "Hall 1", site: { slug: "berlin-dc1" }, location: { slug: "ber1-main-ground-floor" } } },
  { model: "dcim.rackgroup", data: { name: "Row A", site: { slug: "berlin-dc1" }, parent: { slug: "hall-1" } } },
  { model: "dcim.rack", data: { name: "A01", site: { slug: "berlin-dc1" }, group: { slug: "row-a" }, role: { slug: "network" }, status: "active", type: "4-post-cabinet", facility_id: "BER1-A01", tenant: { slug: "acme-corp" }, location: { slug: "ber1-main-ground-floor" } } },
  { model: "dcim.rack", data: { name: "A02", site: { slug: "berlin-dc1" }, group: { slug: "row-a" }, role: { slug: "compute" }, status: "active", u_height: 48, location: { slug: "ber1-main-ground-floor" } } },
  { model: "dcim.rack", data: { name: "LAB1", site: { slug: "new-york-lab" }, status: "planned", width: 10, u_height: 12, tags: [{ slug: "lab" }] } },
];

const deviceTypes: Fixture[] = [
  { model: "dcim.manufacturer", data: { name: "Juniper" } },
  { model: "dcim.manufacturer", data: { name: "Arista" } },
  { model: "dcim.devicerole", data: { name: "Core Router", color: "f44336", vm_role: false } },
  { model: "dcim.devicerole", data: { name: "Leaf Switch", color: "3f51b5", vm_role: false } },
  { model: "dcim.platform", data: { name: "Junos", manufacturer: { slug: "juniper" }, napalm_driver: "junos" } },
  { model: "dcim.platform", data: { name: "EOS", manufacturer: { slug: "arista" }, napalm_driver: "eos", napalm_args: { transport: "https" } } },
  { model: "dcim.devicetype", data: { manufacturer: { slug: "juniper" }, model: "MX204", u_height: 1, part_number: "MX204-HW-BASE" } },
  { model: "dcim.devicetype", data: { manufacturer: { slug: "arista" }, model: "DCS-7050SX3-48YC8", slug: "dcs-7050sx3", u_height: 1 } },
  { model: "dcim.manufacturer", data: { name: "Panduit" } },
  { model: "dcim.devicerole", data: { name: "Patch Panel", color: "9e9e9e", vm_role: false } },
  { model: "dcim.devicetype", data: { manufacturer: { slug: "panduit" }, model: "FLEX-LC-12", slug: "flex-lc-12", u_height: 1 } },
  { model: "dcim.manufacturer", data: { name: "Opengear" } },
  { model: "dcim.devicerole", data: { name: "Console Server", color: "795548", vm_role: false } },
  { model: "dcim.devicetype", data: { manufacturer: { slug: "opengear" }, model: "CM7116-2", slug: "cm7116", u_height: 1 } },
];

/** Each device type's components: every device of it gets them when created. */
const templates: Fixture[] = [
  ...["et-0/0/0", "et-0/0/1", "et-0/0/2", "et-0/0/3"].map((name) => ({ model: "dcim.interfacetemplate", data: { device_type: { slug: "mx204" }, name, type: "100gbase-x-qsfp28" } })),
  { model: "dcim.interfacetemplate", data: { device_type: { slug: "mx204" }, name: "fxp0", type: "1000base-t", mgmt_only: true } },
  { model: "dcim.consoleporttemplate", data: { device_type: { slug: "mx204" }, name: "con", type: "rj-45" } },
  { model: "dcim.powerporttemplate", data: { device_type: { slug: "mx204" }, name: "PEM0", type: "iec-60320-c14", maximum_draw: 650 } },
  { model: "dcim.powerporttemplate", data: { device_type: { slug: "mx204" }, name: "PEM1", type: "iec-60320-c14", maximum_draw: 650 } },
  ...["Ethernet1", "Ethernet2", "Ethernet3", "Ethernet4"].map((name) => ({ model: "dcim.interfacetemplate", data: { device_type: { slug: "dcs-7050sx3" }, name, type: "25gbase-x-sfp28" } })),
  { model: "dcim.interfacetemplate", data: { device_type: { slug: "dcs-7050sx3" }, name: "Management1", type: "1000base-t", mgmt_only: true } },
  { model: "dcim.consoleporttemplate", data: { device_type: { slug: "dcs-7050sx3" }, name: "Console", type: "rj-45" } },
  { model: "dcim.powerporttemplate", data: { device_type: { slug: "dcs-7050sx3" }, name: "PSU1", type: "iec-60320-c14" } },
  { model: "dcim.powerporttemplate", data: { device_type: { slug: "dcs-7050sx3" }, name: "PSU2", type: "iec-60320-c14" } },
  { model: "dcim.rearporttemplate", data: { device_type: { slug: "flex-lc-12" }, name: "Trunk", type: "mpo", positions: 2 } },
  ...[1, 2, 3, 4].map((p) => ({ model: "dcim.consoleserverporttemplate", data: { device_type: { slug: "cm7116" }, name: `Port ${p}`, type: "rj-45" } })),
  ...[1, 2].map((p) => ({ model: "dcim.frontporttemplate", data: { device_type: { slug: "flex-lc-12" }, name: `Port ${p}`, type: "lc", rear_port: { device_type: { slug: "flex-lc-12" }, name: "Trunk" }, rear_port_position: p } })),
];

/** Router credentials read from the environment, and the edge pair as one redundancy group. */
const secrets: Fixture[] = [
  // A status of the users' own, beside the defaults the migration made (Nautobot's custom statuses).
  { model: "extras.status", data: { name: "Burn-in", content_types: ["dcim.device"], color: "ff9800" } },
  { model: "extras.secret", data: { name: "Router username", provider: "environment-variable", parameters: { variable: "ROUTER_USERNAME" } } },
  { model: "extras.secret", data: { name: "Router password", provider: "environment-variable", parameters: { variable: "ROUTER_PASSWORD" } } },
  { model: "extras.secretsgroup", data: { name: "Edge routers", description: "SSH login of the edge routers" } },
  { model: "extras.secretsgroupassociation", data: { group: { slug: "edge-routers" }, access_type: "SSH", secret_type: "username", secret: { slug: "router-username" } } },
  { model: "extras.secretsgroupassociation", data: { group: { slug: "edge-routers" }, access_type: "SSH", secret_type: "password", secret: { slug: "router-password" } } },
  { model: "dcim.deviceredundancygroup", data: { name: "BER1 edge", status: "active", failover_strategy: "active-active", secrets_group: { slug: "edge-routers" } } },
];

const devices: Fixture[] = [
  { model: "dcim.device", data: { name: "ber1-edge1", device_type: { slug: "mx204" }, device_role: { slug: "core-router" }, platform: { slug: "junos" }, site: { slug: "berlin-dc1" }, rack: { name: "A01" }, position: 40, face: "front", status: "active", tenant: { slug: "acme-corp" }, serial: "JN1234567", tags: [{ slug: "production" }], device_redundancy_group: { slug: "ber1-edge" }, device_redundancy_group_priority: 1, secrets_group: { slug: "edge-routers" } } },
  { model: "dcim.device", data: { name: "ber1-edge2", device_type: { slug: "mx204" }, device_role: { slug: "core-router" }, platform: { slug: "junos" }, site: { slug: "berlin-dc1" }, rack: { name: "A01" }, position: 38, face: "front", status: "active", tenant: { slug: "acme-corp" }, device_redundancy_group: { slug: "ber1-edge" }, device_redundancy_group_priority: 2, secrets_group: { slug: "edge-routers" } } },
  { model: "dcim.device", data: { name: "ber1-leaf1", device_type: { slug: "dcs-7050sx3" }, device_role: { slug: "leaf-switch" }, platform: { slug: "eos" }, site: { slug: "berlin-dc1" }, rack: { name: "A02" }, position: 42, face: "front", status: "active", local_context_data: { ntp: ["10.1.1.1"] } } },
  { model: "dcim.device", data: { name: "nyc-lab-sw1", device_type: { slug: "dcs-7050sx3" }, device_role: { slug: "leaf-switch" }, site: { slug: "new-york-lab" }, status: "planned" } },
  { model: "dcim.device", data: { name: "ber1-pp-a01", device_type: { slug: "flex-lc-12" }, device_role: { slug: "patch-panel" }, site: { slug: "berlin-dc1" }, rack: { name: "A01" }, position: 1, face: "front", status: "active" } },
  { model: "dcim.device", data: { name: "ber1-cs1", device_type: { slug: "cm7116" }, device_role: { slug: "console-server" }, site: { slug: "berlin-dc1" }, rack: { name: "A01" }, position: 2, face: "front", status: "active" } },
  { model: "dcim.device", data: { name: "ber1-pp-a02", device_type: { slug: "flex-lc-12" }, device_role: { slug: "patch-panel" }, site: { slug: "berlin-dc1" }, rack: { name: "A02" }, position: 1, face: "front", status: "active" } },
];

/** Region-wide defaults, overridden for core routers (higher weight wins); ber1-leaf1's local data overrides both. */
const configContexts: Fixture[] = [
  { model: "extras.configcontextschema", data: { name: "NTP and DNS", data_schema: { type: "object", properties: { ntp: { type: "array", items: { type: "string" } }, dns: { type: "array" } } } } },
  { model: "extras.configcontext", data: { name: "Germany defaults", weight: 1000, regions: [{ slug: "germany" }], schema: { slug: "ntp-and-dns" }, data: { ntp: ["ptbtime1.ptb.de"], dns: ["10.1.1.53"], syslog: { server: "10.1.1.514", level: "warning" } } } },
  { model: "extras.configcontext", data: { name: "Core routers", weight: 2000, roles: [{ slug: "core-router" }], data: { syslog: { level: "informational" }, bgp: { asn: 64512 } } } },
];

/**
 * A vSphere cluster in Berlin running two application servers; the cluster's own context adds
 * its DNS search domain to theirs (they also get the Germany defaults through the site).
 */
const virtualization: Fixture[] = [
  { model: "virtualization.clustertype", data: { name: "VMware vSphere", description: "ESXi hosts under vCenter" } },
  { model: "virtualization.clustergroup", data: { name: "Berlin production" } },
  { model: "virtualization.cluster", data: { name: "ber1-vsphere", type: { slug: "vmware-vsphere" }, group: { slug: "berlin-production" }, site: { slug: "berlin-dc1" }, tenant: { slug: "acme-corp" }, tags: [{ slug: "production" }] } },
  { model: "dcim.devicerole", data: { name: "Application Server", color: "009688" } },
  { model: "dcim.platform", data: { name: "Ubuntu Linux" } },
  { model: "virtualization.virtualmachine", data: { name: "ber1-app1", cluster: { name: "ber1-vsphere" }, role: { slug: "application-server" }, platform: { slug: "ubuntu-linux" }, tenant: { slug: "acme-corp" }, status: "active", vcpus: 4, memory: 8192, disk: 80, tags: [{ slug: "production" }] } },
  { model: "virtualization.virtualmachine", data: { name: "ber1-app2", cluster: { name: "ber1-vsphere" }, role: { slug: "application-server" }, platform: { slug: "ubuntu-linux" }, status: "staged", vcpus: 2, memory: 4096, disk: 40, local_context_data: { app: { port: 8443 } } } },
  { model: "virtualization.vminterface", data: { virtual_machine: { name: "ber1-app1" }, name: "ens160", status: "active", mac_address: "00:50:56:01:02:03", mtu: 1500 } },
  { model: "virtualization.vminterface", data: { virtual_machine: { name: "ber1-app1" }, name: "ens160.20", status: "active", parent_interface: { virtual_machine: { name: "ber1-app1" }, name: "ens160" }, mode: "access", description: "Backup network" } },
  { model: "virtualization.vminterface", data: { virtual_machine: { name: "ber1-app2" }, name: "ens160", status: "active", mac_address: "00:50:56:01:02:04" } },
  { model: "extras.configcontext", data: { name: "vSphere guests", weight: 1500, clusters: [{ name: "ber1-vsphere" }], data: { dns_search: ["ber1.example.net"] } } },
];

/** What listens where: SSH and BGP on an edge router, HTTPS and syslog on an application server. */
const services: Fixture[] = [
  { model: "ipam.service", data: { device: { name: "ber1-edge1" }, name: "ssh", protocol: "tcp", ports: [22], description: "Management access" } },
  { model: "ipam.service", data: { device: { name: "ber1-edge1" }, name: "bgp", protocol: "tcp", ports: [179], ipaddresses: [{ address: "10.1.1.1/24" }] } },
  { model: "ipam.service", data: { virtual_machine: { name: "ber1-app1" }, name: "https", protocol: "tcp", ports: [443, 8443], ipaddresses: [{ address: "10.1.1.10/24" }], tags: [{ slug: "production" }] } },
  { model: "ipam.service", data: { virtual_machine: { name: "ber1-app1" }, name: "syslog", protocol: "udp", ports: [514] } },
];

const inventoryItems: Fixture[] = [
  { model: "dcim.inventoryitem", data: { device: { name: "ber1-edge1" }, name: "FPC 0", manufacturer: { slug: "juniper" }, part_id: "MX204-FPC", serial: "CAFE1234" } },
  { model: "dcim.inventoryitem", data: { device: { name: "ber1-edge1" }, parent: { name: "FPC 0", device: { name: "ber1-edge1" } }, name: "PIC 0", manufacturer: { slug: "juniper" }, part_id: "MX204-PIC" } },
  { model: "dcim.inventoryitem", data: { device: { name: "ber1-edge1" }, name: "PEM 0", manufacturer: { slug: "juniper" }, part_id: "JPSU-650W-AC-AFO", discovered: true } },
];

const circuits: Fixture[] = [
  { model: "circuits.provider", data: { name: "Telia Carrier", asn: 1299, account: "ACME-0042", portal_url: "https://portal.teliacarrier.example" } },
  { model: "circuits.providernetwork", data: { provider: { slug: "telia-carrier" }, name: "Telia IP Transit" } },
  { model: "circuits.circuittype", data: { name: "Wavelength" } },
  { model: "circuits.circuit", data: { cid: "TC-100G-4711", provider: { slug: "telia-carrier" }, type: { slug: "wavelength" }, status: "active", commit_rate: 100000000, tenant: { slug: "acme-corp" } } },
  { model: "circuits.circuittermination", data: { circuit: { cid: "TC-100G-4711" }, term_side: "A", site: { slug: "berlin-dc1" }, port_speed: 100000000, xconnect_id: "MMR-BER1-17" } },
  { model: "circuits.circuittermination", data: { circuit: { cid: "TC-100G-4711" }, term_side: "Z", site: { slug: "new-york-lab" }, port_speed: 100000000 } },
];

const power: Fixture[] = [
  { model: "dcim.powerpanel", data: { site: { slug: "berlin-dc1" }, location: { slug: "ber1-main" }, rack_group: { slug: "hall-1" }, name: "RPP-1A" } },
  { model: "dcim.powerfeed", data: { power_panel: { name: "RPP-1A" }, rack: { name: "A01" }, name: "A01-A", status: "active", phase: "three-phase", voltage: 400, amperage: 16 } },
  { model: "dcim.powerfeed", data: { power_panel: { name: "RPP-1A" }, rack: { name: "A01" }, name: "A01-B", status: "active", type: "redundant", phase: "three-phase", voltage: 400, amperage: 16 } },
];

/** A cable between two ends, each named by its model and attributes. */
function cable(a: [string, Record<string, unknown>], b: [string, Record<string, unknown>], data: Record<string, unknown> = {}): Fixture {
  return {
    model: "dcim.cable",
    data: { termination_a_type: a[0], termination_b_type: b[0], status: "connected", ...data },
    ids: { termination_a_id: { model: a[0], match: a[1] }, termination_b_id: { model: b[0], match: b[1] } },
  };
}
const port = (device: string, name: string) => ({ device: { name: device }, name });

/**
 * ber1-edge1 reaches ber1-leaf1 across the two patch panels' trunk and draws power from both
 * feeds of its rack; ber1-edge2 reaches the New York lab switch over the Telia wavelength; the
 * console server reaches both edge routers' consoles.
 */
const cables: Fixture[] = [
  cable(["dcim.interface", port("ber1-edge1", "et-0/0/0")], ["dcim.frontport", port("ber1-pp-a01", "Port 1")], { type: "smf", label: "BER1-0001" }),
  cable(["dcim.rearport", port("ber1-pp-a01", "Trunk")], ["dcim.rearport", port("ber1-pp-a02", "Trunk")], { type: "smf", label: "BER1-TRUNK-1", length: 12, length_unit: "m" }),
  cable(["dcim.frontport", port("ber1-pp-a02", "Port 1")], ["dcim.interface", port("ber1-leaf1", "Ethernet1")], { type: "smf", label: "BER1-0002" }),
  cable(["dcim.interface", port("ber1-edge2", "et-0/0/0")], ["circuits.circuittermination", { circuit: { cid: "TC-100G-4711" }, term_side: "A" }], { type: "smf" }),
  cable(["circuits.circuittermination", { circuit: { cid: "TC-100G-4711" }, term_side: "Z" }], ["dcim.interface", port("nyc-lab-sw1", "Ethernet1")], { type: "smf" }),
  cable(["dcim.consoleserverport", port("ber1-cs1", "Port 1")], ["dcim.consoleport", port("ber1-edge1", "con")], { type: "cat6", color: "2196f3" }),
  cable(["dcim.consoleserverport", port("ber1-cs1", "Port 2")], ["dcim.consoleport", port("ber1-edge2", "con")], { type: "cat6", color: "2196f3" }),
  cable(["dcim.powerfeed", { name: "A01-A" }], ["dcim.powerport", port("ber1-edge1", "PEM0")], { type: "power" }),
  cable(["dcim.powerfeed", { name: "A01-B" }], ["dcim.powerport", port("ber1-edge1", "PEM1")], { type: "power" }),
];

// Defined last, as users add them to a running inventory: the devices already there get the
// text field's default; the sites show the select field empty until someone picks a tier.
const customFields: Fixture[] = [
  { model: "extras.customfield", version: "1.2", data: { name: "support_contract", type: "text", content_types: ["dcim.device"], default: "standard", description: "Vendor support level" } },
  { model: "extras.customfield", version: "1.2", data: { name: "site_tier", label: "Site tier", type: "select", content_types: ["dcim.site"], filter_logic: "exact" } },
  { model: "extras.customfieldchoice", data: { field: { name: "site_tier" }, value: "tier-1", weight: 10 } },
  { model: "extras.customfieldchoice", data: { field: { name: "site_tier" }, value: "tier-2", weight: 20 } },
];

/** A device's location line, shown with ?include=computed_fields, and a note on the Berlin site. */
const computedFieldsAndNotes: Fixture[] = [
  { model: "extras.computedfield", data: {
    content_type: "dcim.device", label: "Location line",
    template: "{{ obj.name }} @ {{ obj.site.name }}{% if obj.rack %}, rack {{ obj.rack.name }} U{{ obj.position }}{% endif %}", fallback_value: "unplaced",
  } },
  {
    model: "extras.note", data: { assigned_object_type: "dcim.site", note: "Access by badge only; call the NOC before any work." },
    ids: { assigned_object_id: { model: "dcim.site", match: { slug: "berlin-dc1" } } },
  },
];

/** Demo logins besides the administrator's, as `make run` prints them. */
export const inventoryLogins = [
  "noc / noc-password (the NOC group: reads the network, changes nothing)",
  "berlin-engineer / engineer-password (builds in Berlin DC1 only: devices, interfaces, racks, prefixes, VLANs there)",
];

/** What a NOC reads: the network's objects, not its users or permissions. */
const networkTypes = [
  "circuits.circuit", "circuits.circuittermination", "circuits.provider", "dcim.cable", "dcim.consoleport", "dcim.device", "dcim.devicerole", "dcim.devicetype",
  "dcim.interface", "dcim.location", "dcim.manufacturer", "dcim.platform", "dcim.powerfeed", "dcim.rack", "dcim.region", "dcim.site", "extras.status", "extras.tag",
  "ipam.aggregate", "ipam.ipaddress", "ipam.prefix", "ipam.rir", "ipam.role", "ipam.vlan", "ipam.vlangroup", "ipam.vrf", "tenancy.tenant",
  "virtualization.cluster", "virtualization.virtualmachine",
];

/** Every user may keep their own API tokens; the administrator grants it, as Nautobot's admins do. */
const ownTokens = { object_types: ["users.token"], actions: ["view", "add", "change", "delete"], constraints: { user: "$user" } };

/**
 * Two logins with object permissions: a read-only NOC (through its group) and an engineer
 * whose writes are constrained to one site.
 */
const people: Fixture[] = [
  { model: "users.group", data: { name: "NOC" } },
  { model: "users.user", data: { username: "noc", password: "noc-password", first_name: "Network", last_name: "Operations" }, ids: { groups: [{ model: "users.group", match: { name: "NOC" } }] } },
  { model: "users.user", data: { username: "berlin-engineer", password: "engineer-password", first_name: "Berlin", last_name: "Engineer" } },
  {
    model: "users.objectpermission", data: { name: "NOC reads the network", object_types: networkTypes, actions: ["view"] },
    ids: { groups: [{ model: "users.group", match: { name: "NOC" } }] },
  },
  {
    model: "users.objectpermission", data: { name: "Own API tokens", ...ownTokens },
    ids: { users: [{ model: "users.user", match: { username: "noc" } }, { model: "users.user", match: { username: "berlin-engineer" } }] },
  },
  {
    model: "users.objectpermission", data: { name: "Berlin DC1: what the engineer may look up", object_types: networkTypes, actions: ["view"] },
    ids: { users: [{ model: "users.user", match: { username: "berlin-engineer" } }] },
  },
  {
    model: "users.objectpermission", data: {
      name: "Berlin DC1: build", object_types: ["dcim.device", "dcim.rack", "ipam.prefix", "ipam.vlan"], actions: ["add", "change", "delete"], constraints: { site__slug: "berlin-dc1" },
    },
    ids: { users: [{ model: "users.user", match: { username: "berlin-engineer" } }] },
  },
  {
    model: "users.objectpermission", data: {
      name: "Berlin DC1: cable up", object_types: ["dcim.interface"], actions: ["add", "change", "delete"], constraints: { device__site__slug: "berlin-dc1" },
    },
    ids: { users: [{ model: "users.user", match: { username: "berlin-engineer" } }] },
  },
];

// Dynamic groups: two by filter, and one folding them (Berlin's devices but the edge routers).
const dynamicGroups: Fixture[] = [
  { model: "extras.dynamicgroup", data: { name: "Berlin DC1 devices", content_type: "dcim.device", filter: { site: ["berlin-dc1"] } } },
  { model: "extras.dynamicgroup", data: { name: "Edge routers", content_type: "dcim.device", filter: { role: ["core-router"] } } },
  { model: "extras.dynamicgroup", data: { name: "Berlin DC1 without the edge", content_type: "dcim.device", description: "Berlin DC1 devices, edge routers excluded" } },
  { model: "extras.dynamicgroupmembership", data: { parent_group: { slug: "berlin-dc1-without-the-edge" }, group: { slug: "berlin-dc1-devices" }, operator: "intersection", weight: 10 } },
  { model: "extras.dynamicgroupmembership", data: { parent_group: { slug: "berlin-dc1-without-the-edge" }, group: { slug: "edge-routers" }, operator: "difference", weight: 20 } },
];

export const inventoryDemo: Fixture[] = [
  ...regions, ...tenancy, ...tags, ...sites, ...ipam, ...locations, ...racks, ...deviceTypes, ...templates, ...secrets, ...devices, ...configContexts, ...virtualization, ...services, ...inventoryItems, ...circuits, ...power, ...cables,
  ...computedFieldsAndNotes, ...customFields, ...people, ...dynamicGroups,
];
