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
  { model: "extras.tag", data: { name: "Production", color: "2196f3" } },
  { model: "extras.tag", data: { name: "Lab", color: "ff9800" } },
];

const sites: Fixture[] = [
  { model: "dcim.site", data: { name: "Berlin DC1", status: "active", region: { slug: "germany" }, tenant: { slug: "acme-corp" }, facility: "BER1", asn: 64512, time_zone: "Europe/Berlin", tags: [{ slug: "production" }] } },
  { model: "dcim.site", data: { name: "Frankfurt DC2", status: "planned", region: { slug: "germany" }, tenant: { slug: "globex" } } },
  { model: "dcim.site", data: { name: "New York Lab", status: "active", region: { slug: "north-america" }, tags: [{ slug: "lab" }] } },
];

const ipam: Fixture[] = [
  { model: "ipam.vrf", data: { name: "Customer A", rd: "64512:1", tenant: { slug: "acme-corp" } } },
  { model: "ipam.vrf", data: { name: "Management", rd: "64512:100" } },
  { model: "ipam.role", data: { name: "Production", weight: 100 } },
  { model: "ipam.role", data: { name: "Management" } },
  { model: "ipam.prefix", data: { prefix: "10.0.0.0/8", status: "container", description: "Private space" } },
  { model: "ipam.prefix", data: { prefix: "10.1.0.0/16", status: "active", site: { slug: "berlin-dc1" }, role: { slug: "production" }, tags: [{ slug: "production" }] } },
  { model: "ipam.prefix", data: { prefix: "10.1.1.0/24", status: "active", site: { slug: "berlin-dc1" }, vrf: { rd: "64512:1" }, tenant: { slug: "acme-corp" } } },
  { model: "ipam.prefix", data: { prefix: "10.2.0.0/16", status: "reserved", site: { slug: "frankfurt-dc2" } } },
  { model: "ipam.prefix", data: { prefix: "192.168.100.0/24", status: "active", vrf: { rd: "64512:100" }, role: { slug: "management" }, is_pool: true } },
  { model: "ipam.prefix", data: { prefix: "2001:db8::/32", status: "container" } },
  { model: "ipam.prefix", data: { prefix: "2001:db8:1::/48", status: "active", site: { slug: "new-york-lab" }, tags: [{ slug: "lab" }] } },
  { model: "ipam.ipaddress", data: { address: "10.1.1.1/24", status: "active", vrf: { rd: "64512:1" }, dns_name: "gw.ber1.example.net", role: "vrrp" } },
  { model: "ipam.ipaddress", data: { address: "10.1.1.10/24", status: "active", vrf: { rd: "64512:1" }, dns_name: "web1.ber1.example.net" } },
  { model: "ipam.ipaddress", data: { address: "192.168.100.5/24", status: "dhcp", vrf: { rd: "64512:100" } } },
  { model: "ipam.ipaddress", data: { address: "2001:db8:1::1/64", status: "active", description: "Lab router" } },
];

export const inventoryDemo: Fixture[] = [...regions, ...tenancy, ...tags, ...sites, ...ipam];
