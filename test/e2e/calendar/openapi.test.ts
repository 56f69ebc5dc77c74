// The emitted OpenAPI document describes what the calendar server returns: real responses of
// every route kind are validated against the response schema of their operation with ajv.
import { expect } from "chai";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { get, post, call } from "../../support/http.js";
import { NS, makeEvent } from "./support.js";

const addFormatsFn = addFormatsModule as unknown as { default?: (a: Ajv2020) => void } & ((a: Ajv2020) => void);
const addFormats = (a: Ajv2020): Ajv2020 => { (addFormatsFn.default ?? addFormatsFn)(a); return a; };

describe("calendar: responses match the OpenAPI document", () => {
  let doc: any;
  let ajv: Ajv2020;

  before(async () => {
    doc = (await get(`${NS}/doc`, { token: null })).body;
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: "doc", components: doc.components });
  });

  function check(path: string, method: string, status: number, body: unknown, headers?: Headers): void {
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path} documented`).to.be.an("object");
    const response = op.responses[String(status)];
    expect(response, `${method} ${path} ${status} documented`).to.be.an("object");
    const schema = JSON.parse(JSON.stringify(response.content["application/json"].schema).replace(/"#\/components/g, "\"doc#/components"));
    const validate = ajv.compile(schema);
    expect(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    for (const h of Object.keys(response.headers ?? {})) expect(headers?.get(h), h).to.match(/^\d+$/);
  }

  it("lists and records of every model", async () => {
    for (const key of ["events", "venues", "organizers", "categories", "tags"]) {
      const list = await get(`${NS}/${key}?per_page=50${key === "events" ? "&start_date=-90%20days" : ""}`);
      check(`/${key}`, "get", 200, list.body, list.headers);
      const first = list.body[key][0];
      const one = await get(`${NS}/${key}/${first.id}`);
      check(`/${key}/{id}`, "get", 200, one.body);
      if (key !== "categories" && key !== "tags") check(`/${key}/by-slug/{slug}`, "get", 200, (await get(`${NS}/${key}/by-slug/${first.slug}`)).body);
    }
  });

  it("writes, deletes and errors", async () => {
    const created = await post(`${NS}/events`, { title: "Schema probe", start_date: "2030-05-01 10:00", end_date: "2030-05-01 11:00", venue: { venue: "Schema Hall", geo_lat: 1, geo_lng: 2 }, organizer: [{ organizer: "Schema Org" }], tags: "schema" });
    check("/events", "post", 201, created.body);
    check("/events/{id}", "patch", 200, (await call("PATCH", `${NS}/events/${created.body.id}`, { body: { cost: "5$" } })).body);
    check("/events/{id}", "delete", 200, (await call("DELETE", `${NS}/events/${created.body.id}`)).body);
    check("/events/{id}", "delete", 410, (await call("DELETE", `${NS}/events/${created.body.id}`)).body);
    check("/events/{id}", "get", 404, (await get(`${NS}/events/999999`)).body);
    check("/events", "get", 400, (await get(`${NS}/events?page=foo`)).body);
    check("/events", "post", 401, (await post(`${NS}/events`, {}, { token: null })).body);
    check("/events", "post", 400, (await post(`${NS}/events`, { title: "x" })).body);
    check("/categories", "post", 201, (await post(`${NS}/categories`, { name: "Schema cat" })).body);
    check("/venues", "post", 201, (await post(`${NS}/venues`, { venue: "Schema venue 2" })).body);
    const e = await makeEvent({ image: "https://example.org/poster.jpg" });
    check("/events/{id}", "get", 200, (await get(`${NS}/events/${e.id}`)).body);
  });
});
