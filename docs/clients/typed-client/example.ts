// A tour of the inventory API through openapi-fetch with the types openapi-typescript makes
// of its document: lists, filters, brief forms, a create, a bulk create, an update and deletes,
// in plain code (no `"site" in d` or `Array.isArray` guards: each reply has one type).
// Run against a server: npx tsx example.ts <base URL> <token>
import { fileURLToPath } from "node:url";
import { inventoryClients } from "./client.js";

export interface TourResult {
  sites: string[];
  devices: Array<{ name: string | null; site: string }>;
  briefDevices: string[];
  created: string;
  renamed: string;
  bulkCreated: string[];
}

export async function tour(baseUrl: string, token: string, suffix = String(Date.now())): Promise<TourResult> {
  const { api, brief, bulk } = inventoryClients({
    baseUrl,
    headers: { Authorization: `Token ${token}`, Accept: "application/json; version=1.3" },
  });

  const sites = await api.GET("/api/dcim/sites/", { params: { query: { limit: 5 } } });
  if (!sites.data) throw new Error(`sites: ${JSON.stringify(sites.error)}`);
  const site = sites.data.results[0];

  const devices = await api.GET("/api/dcim/devices/", { params: { query: { site: [site.slug ?? ""], limit: 10 } } });
  if (!devices.data) throw new Error(`devices: ${JSON.stringify(devices.error)}`);

  const names = await brief.GET("/api/dcim/devices/", { params: { query: { brief: "1", limit: 10 } } });
  if (!names.data) throw new Error(`brief devices: ${JSON.stringify(names.error)}`);

  const made = await api.POST("/api/dcim/manufacturers/", { body: { name: `Typed ${suffix}`, slug: `typed-${suffix}` } });
  if (!made.data) throw new Error(`create: ${JSON.stringify(made.error)}`);
  const id = made.data.id;

  const renamed = await api.PATCH("/api/dcim/manufacturers/{id}/", { params: { path: { id } }, body: { description: "made by the typed client" } });
  if (!renamed.data) throw new Error(`update: ${JSON.stringify(renamed.error)}`);

  const many = await bulk.POST("/api/dcim/manufacturers/", {
    body: [1, 2].map((n) => ({ name: `Typed ${suffix} ${n}`, slug: `typed-${suffix}-${n}` })),
  });
  if (!many.data) throw new Error(`bulk create: ${JSON.stringify(many.error)}`);

  for (const m of [made.data, ...many.data]) {
    const gone = await api.DELETE("/api/dcim/manufacturers/{id}/", { params: { path: { id: m.id } } });
    if (gone.response.status !== 204) throw new Error(`delete ${m.id}: ${gone.response.status}`);
  }

  return {
    sites: sites.data.results.map((s) => `${s.name} (${s.status.label})`),
    devices: devices.data.results.map((d) => ({ name: d.name, site: d.site.name })),
    briefDevices: names.data.results.map((d) => d.display),
    created: made.data.display,
    renamed: renamed.data.description ?? "",
    bulkCreated: many.data.map((m) => m.slug ?? ""),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [baseUrl, token] = process.argv.slice(2);
  if (!baseUrl || !token) {
    console.error("usage: tsx example.ts <base URL> <token>");
    process.exit(2);
  }
  console.log(JSON.stringify(await tour(baseUrl, token), null, 2));
}
