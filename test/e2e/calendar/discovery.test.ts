// The calendar API's discovery surface: the WordPress REST index, the Link header, the
// namespace index, /doc, unknown routes, method override, _envelope and ignored WP params.
import { expect } from "chai";
import { get, call } from "../../support/http.js";
import { NS } from "./support.js";

describe("calendar: discovery", () => {
  it("the site root advertises the REST root, so clients can discover the API from the site URL", async () => {
    const res = await get("/", { token: null });
    expect(res.status).to.equal(200);
    expect(res.headers.get("link")).to.match(/^<http:\/\/127\.0\.0\.1:\d+\/wp-json\/>; rel="https:\/\/api\.w\.org\/"$/);
    const root = await get(new URL(/^<([^>]+)>/.exec(res.headers.get("link")!)![1]).pathname, { token: null });
    expect(root.body.namespaces).to.include("calendar/events/v1");
  });

  it("serves the REST index with namespaces and routes, and the Link header everywhere", async () => {
    const res = await get("/wp-json/", { token: null });
    expect(res.status).to.equal(200);
    expect(res.headers.get("link")).to.match(/^<http:\/\/127\.0\.0\.1:\d+\/wp-json\/>; rel="https:\/\/api\.w\.org\/"$/);
    expect(res.body.namespaces).to.deep.equal(["calendar/events/v1"]);
    const events = res.body.routes["/calendar/events/v1/events"];
    expect(events.namespace).to.equal("calendar/events/v1");
    expect(events.methods).to.deep.equal(["GET", "POST"]);
    expect(events.endpoints[0].args.per_page).to.include({ type: "integer", default: 10, required: false });
    expect(events.endpoints[1].args.title.required).to.equal(true);
    expect(res.body.routes["/calendar/events/v1/events/(?P<id>\\d+)"].methods).to.deep.equal(["GET", "DELETE", "POST", "PUT", "PATCH"]);
    expect(res.body.routes["/calendar/events/v1/venues/by-slug/(?P<slug>[^/]+)"]).to.be.an("object");
    expect(res.body.routes["/calendar/events/v1/categories/(?P<id>\\d+)"].methods).to.deep.equal(["GET", "POST", "PUT", "PATCH", "DELETE"]);
    expect(res.body.routes).to.not.have.property("/calendar/events/v1/categories/by-slug/(?P<slug>[^/]+)");
    const err = await get(`${NS}/nope`, { token: null });
    expect(err.headers.get("link")).to.include("rel=\"https://api.w.org/\"");
  });

  it("lists the namespace's routes at its root, honouring namespace and context", async () => {
    const res = await get(`${NS}/`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.body.namespace).to.equal("calendar/events/v1");
    expect(Object.keys(res.body.routes)[0]).to.equal("/calendar/events/v1");
    expect(res.body.routes["/calendar/events/v1"].endpoints[0].args).to.deep.equal({
      namespace: { default: "calendar/events/v1", required: false }, context: { default: "view", required: false },
    });
    expect((await get(`${NS}?context=view&namespace=calendar/events/v1`, { token: null })).status).to.equal(200);
    const bad = await get(`${NS}/?namespace=other/v2`, { token: null });
    expect(bad.status).to.equal(404);
    expect(bad.body.code).to.equal("rest_invalid_namespace");
  });

  it("serves the OpenAPI document at /doc with the namespace URL as server", async () => {
    const res = await get(`${NS}/doc`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal("3.1.0");
    expect(res.body.info).to.include.keys("title", "version", "description");
    expect(res.body.servers[0].url).to.match(/\/wp-json\/calendar\/events\/v1\/$/);
    expect(res.body.paths["/events"]).to.have.property("get");
    expect(res.body.paths["/events/{id}"]).to.have.keys("get", "delete", "post", "put", "patch");
    expect(res.body.components.schemas).to.include.keys("Event", "Venue", "Organizer", "Category", "Tag", "DateDetails");
  });

  it("answers unknown routes and wrong methods with rest_no_route", async () => {
    for (const [method, path] of [["GET", `${NS}/venues/foo`], ["GET", `${NS}/events/by-slug/`], ["PUT", `${NS}/events`], ["GET", `${NS}/categories/by-slug/music`]]) {
      const res = await call(method, path, { token: null });
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body).to.deep.equal({ code: "rest_no_route", message: "No route was found matching the URL and request method.", data: { status: 404 } });
    }
  });

  it("honours X-HTTP-Method-Override and _method on POST", async () => {
    const res = await call("POST", `${NS}/events`, { headers: { "X-HTTP-Method-Override": "GET" } });
    expect(res.status).to.equal(200);
    expect(res.body).to.have.property("events");
    const viaParam = await call("POST", `${NS}/tags?_method=GET`, {});
    expect(viaParam.status).to.equal(200);
    expect(viaParam.body).to.have.property("tags");
  });

  it("wraps responses with _envelope and ignores _locale/_fields-style params", async () => {
    const res = await get(`${NS}/events/999999?_envelope=1`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal(404);
    expect(res.body.body.code).to.equal("rest-event-not-found");
    const ok = await get(`${NS}/events?_locale=user&_fields=id&_embed=1`, { token: null });
    expect(ok.status).to.equal(200);
  });

  it("answers OPTIONS with the route description and an Allow header", async () => {
    const res = await call("OPTIONS", `${NS}/tags`, { token: null });
    expect(res.status).to.equal(200);
    expect(res.headers.get("allow")).to.equal("GET, POST");
    expect(res.body.endpoints[0].args).to.have.property("hide_empty");
  });
});
