// Every path of Nautobot 1.5.24's API root and app roots answers here: the root's and each
// app root's entries are exactly Nautobot's (its api/urls.py `router.register` names, copied
// here as data), each answers a GET, and so do the core paths beside them: the OpenAPI document
// in its three forms, ReDoc, and the filter-set lookups the filter form asks.
import { expect } from "chai";
import { parse as parseYaml } from "yaml";
import { get } from "../../support/http.js";

const ROOT = ["circuits", "dcim", "extras", "graphql", "ipam", "plugins", "status", "tenancy", "users", "virtualization"];

const APP_ROUTES: Record<string, string[]> = {
  circuits: ["circuit-terminations", "circuit-types", "circuits", "provider-networks", "providers"],
  dcim: [
    "cables", "connected-device", "console-connections", "console-port-templates", "console-ports", "console-server-port-templates",
    "console-server-ports", "device-bay-templates", "device-bays", "device-redundancy-groups", "device-roles", "device-types", "devices",
    "front-port-templates", "front-ports", "interface-connections", "interface-templates", "interfaces", "inventory-items", "location-types",
    "locations", "manufacturers", "platforms", "power-connections", "power-feeds", "power-outlet-templates", "power-outlets", "power-panels",
    "power-port-templates", "power-ports", "rack-groups", "rack-reservations", "rack-roles", "racks", "rear-port-templates", "rear-ports",
    "regions", "sites", "virtual-chassis",
  ],
  extras: [
    "computed-fields", "config-context-schemas", "config-contexts", "content-types", "custom-field-choices", "custom-fields", "custom-links",
    "dynamic-group-memberships", "dynamic-groups", "export-templates", "git-repositories", "graphql-queries", "image-attachments",
    "job-buttons", "job-hooks", "job-logs", "job-results", "jobs", "notes", "object-changes", "relationship-associations", "relationships",
    "scheduled-jobs", "secrets", "secrets-groups", "secrets-groups-associations", "statuses", "tags", "webhooks",
  ],
  ipam: ["aggregates", "ip-addresses", "prefixes", "rirs", "roles", "route-targets", "services", "vlan-groups", "vlans", "vrfs"],
  tenancy: ["tenant-groups", "tenants"],
  users: ["config", "groups", "permissions", "tokens", "users"],
  virtualization: ["cluster-groups", "cluster-types", "clusters", "interfaces", "virtual-machines"],
};

/** Routes that answer a bare GET with a 4xx, as Nautobot's do: they need query parameters. */
const NEEDS_PARAMETERS: Record<string, number> = { "dcim/connected-device": 400 };

const LOOKUPS = "/api/core/filterset-fields/lookup-choices/";
const DOM_ELEMENT = "/api/core/filterset-fields/lookup-value-dom-element/";

describe("inventory e2e: the API root, app roots and core paths", () => {
  it("the root lists Nautobot's entries, and each answers", async () => {
    const root = await get("/api/");
    expect(root.status).to.equal(200);
    expect(Object.keys(root.body).sort()).to.deep.equal(ROOT);
    for (const name of ROOT) {
      // GraphQL takes only POST (Nautobot's GraphQLDRFAPIView has no GET for JSON clients).
      const res = await get(`/api/${name}/`);
      expect(res.status, name).to.equal(name === "graphql" ? 405 : 200);
    }
  });

  it("each app root lists exactly Nautobot's routes, and each route answers a GET", async () => {
    for (const [app, routes] of Object.entries(APP_ROUTES)) {
      const res = await get(`/api/${app}/`);
      expect(res.status, app).to.equal(200);
      expect(Object.keys(res.body), app).to.deep.equal(routes);
      for (const route of routes) {
        const list = await get(`/api/${app}/${route}/`);
        expect(list.status, `${app}/${route}`).to.equal(NEEDS_PARAMETERS[`${app}/${route}`] ?? 200);
      }
    }
  });

  it("GraphQL answers a JSON GET with 405, as Nautobot's DRF view", async () => {
    const res = await get("/api/graphql/", { headers: { Accept: "application/json" } });
    expect(res.status).to.equal(405);
    expect(res.body).to.deep.equal({ detail: 'Method "GET" not allowed.' });
  });

  it("the OpenAPI document: swagger/ in YAML by default or JSON when asked, swagger.yaml, swagger.json", async () => {
    const json = await get("/api/swagger.json");
    expect(json.status).to.equal(200);
    const yaml = await get("/api/swagger/");
    expect(yaml.status).to.equal(200);
    expect(yaml.headers.get("content-type")).to.match(/^application\/vnd\.oai\.openapi(;|$)/);
    // The renderings are of one document, JSON.stringify's for JSON: compared as text, which is
    // byte for byte where a deep comparison of two megabytes of objects costs a second each.
    expect(JSON.stringify(parseYaml(yaml.text)) === json.text, "swagger/'s YAML is swagger.json's document").to.equal(true);
    const asJson = await get("/api/swagger/?format=json");
    expect(asJson.headers.get("content-type")).to.match(/^application\/vnd\.oai\.openapi\+json/);
    expect(asJson.text === json.text, "swagger/?format=json is swagger.json").to.equal(true);
    const accepted = await get("/api/swagger/", { headers: { Accept: "application/vnd.oai.openapi+json" } });
    expect(accepted.status).to.equal(200);
    expect(accepted.text === json.text, "swagger/ as JSON by Accept is swagger.json").to.equal(true);
    const file = await get("/api/swagger.yaml");
    expect(file.status).to.equal(200);
    expect(file.headers.get("content-type")).to.match(/^application\/vnd\.oai\.openapi(;|$)/);
    expect(file.text, "swagger.yaml is swagger/'s YAML").to.equal(yaml.text);
    expect((await get("/api/swagger.yaml?format=json")).status).to.equal(404);
    expect((await get("/api/swagger/?format=openapi")).status).to.equal(404);
    expect((await get("/api/swagger.json?format=yaml")).status).to.equal(404);
    expect((await get("/api/swagger.yaml", { headers: { Accept: "application/json" } })).status).to.equal(406);
    // The version asked, as swagger.json gives it.
    const older = await get("/api/swagger/?format=json&api_version=1.2");
    expect(older.text === (await get("/api/swagger.json?api_version=1.2")).text, "swagger/?format=json of 1.2 is its swagger.json").to.equal(true);
    for (const path of ["/api/swagger/", "/api/swagger.yaml", "/api/redoc/", "/api/core/filterset-fields/lookup-choices/", "/api/core/filterset-fields/lookup-value-dom-element/"]) {
      expect(json.body.paths, path).to.have.property(path);
    }
  });

  it("ReDoc: a page of the document, its script served here", async () => {
    const page = await get("/api/redoc/?api_version=1.2");
    expect(page.status).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(page.text).to.include('"/api/swagger/?api_version=1.2"');
    // Its inline script runs under the page's nonce, as the CSP asks.
    const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")![1];
    expect(page.text).to.include(`<script nonce="${nonce}">`);
    const script = /<script src="([^"]+)"/.exec(page.text)![1];
    const asset = await get(script);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get("content-type")).to.match(/javascript/);
  });

  it("lookup choices: a field's lookups with their labels, and Nautobot's refusals", async () => {
    const status = await get(`${LOOKUPS}?content_type=dcim.site&field_name=status`);
    expect(status.status).to.equal(200);
    expect(status.body).to.deep.equal({
      count: 2, next: null, previous: null, results: [{ id: "status", name: "exact" }, { id: "status__n", name: "not exact (n)" }],
    });
    const name = await get(`${LOOKUPS}?content_type=dcim.site&field_name=name`);
    expect(name.body.results).to.deep.include({ id: "name__ic", name: "contains (ic)" });
    expect(name.body.results).to.deep.include({ id: "name__nie", name: "not exact (nie)" });
    expect(name.body.results).to.deep.include({ id: "name__niew", name: "not ends with (niew)" });
    const hasRacks = await get(`${LOOKUPS}?content_type=dcim.site&field_name=has_racks`);
    expect(hasRacks.body.results).to.deep.equal([{ id: "has_racks", name: "exact" }]);
    const asn = await get(`${LOOKUPS}?content_type=dcim.site&field_name=asn`);
    expect(asn.body.results).to.deep.include({ id: "asn__gte", name: "is greater than or equal to (gte)" });
    expect(asn.body.count).to.equal(asn.body.results.length);
    const missing = await get(LOOKUPS);
    expect(missing.status).to.equal(400);
    expect(missing.body).to.equal("content_type and field_name are required parameters");
    const badType = await get(`${LOOKUPS}?content_type=invalid.contenttypes&field_name=name`);
    expect([badType.status, badType.body]).to.deep.equal([404, "content_type not found"]);
    const badField = await get(`${LOOKUPS}?content_type=dcim.site&field_name=fake`);
    expect([badField.status, badField.body]).to.deep.equal([404, "field_name not found"]);
    const anonymous = await get(`${LOOKUPS}?content_type=dcim.site&field_name=name`, { token: null });
    expect(anonymous.status).to.equal(403);
  });

  it("lookup value DOM element: the filter's HTML input, and Nautobot's refusals", async () => {
    const name = await get(`${DOM_ELEMENT}?content_type=dcim.location&field_name=name`);
    expect(name.status).to.equal(200);
    expect(name.body).to.deep.equal({
      dom_element: '<select name="name" class="form-control nautobot-select2-multi-value-char" data-multiple="1" id="id_for_name" multiple>\n</select>',
    });
    const role = await get(`${DOM_ELEMENT}?content_type=ipam.ipaddress&field_name=role`);
    expect(role.status).to.equal(200);
    expect(role.body.dom_element).to.match(/^<select name="role" class="form-control nautobot-select2-static"/);
    expect(role.body.dom_element).to.include('<option value="loopback">Loopback</option>');
    const site = await get(`${DOM_ELEMENT}?content_type=dcim.device&field_name=site`);
    expect(site.body.dom_element).to.include('data-url="/api/dcim/sites/" display-field="display" value-field="slug"');
    const siteId = await get(`${DOM_ELEMENT}?content_type=dcim.device&field_name=site_id`);
    expect(siteId.body.dom_element).to.include('data-url="/api/dcim/sites/" display-field="display" value-field="id"');
    const status = await get(`${DOM_ELEMENT}?content_type=dcim.site&field_name=status`);
    expect(status.body.dom_element).to.include('data-query-param-content_types="[&quot;dcim.site&quot;]" data-url="/api/extras/statuses/"');
    const hasRacks = await get(`${DOM_ELEMENT}?content_type=dcim.site&field_name=has_racks`);
    expect(hasRacks.body.dom_element).to.equal(
      '<select name="has_racks" class="form-control nautobot-select2-static" id="id_for_has_racks">\n  <option value="">---------</option>\n'
      + '  <option value="True">Yes</option>\n  <option value="False">No</option>\n</select>',
    );
    const created = await get(`${DOM_ELEMENT}?content_type=dcim.site&field_name=created`);
    expect(created.body.dom_element).to.include('class="form-control date-picker"');
    expect((await get(DOM_ELEMENT)).body).to.equal("content_type and field_name are required parameters");
    const badField = await get(`${DOM_ELEMENT}?content_type=dcim.site&field_name=fake`);
    expect([badField.status, badField.body]).to.deep.equal([404, "field_name not found"]);
  });
});
