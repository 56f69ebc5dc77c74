// The change log and webhooks over HTTP, as Nautobot 1.5.24 serves them: object changes are
// read only (their rows are the server's to write; here the test writes them directly, and
// changes-recording.test.ts shows the server writing them) with
// Nautobot's fields and filters, and webhooks refuse what Webhook.clean and the serializer's
// conflict check refuse, in their words. Every reply is checked against the emitted document.
import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { apis } from "../../../generated/server.js";
import { Contract, type Method } from "../../support/contract.js";
import { call, get, patch, post, type Reply } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { rows, uniq } from "./support.js";

const inventory = apis.find((a) => a.profile === "drf")!;
const contract = new Contract(inventory.openapi[inventory.versions.default] as Record<string, unknown>, "change-log-webhooks.json");
const CHANGES = "/api/extras/object-changes/";
const WEBHOOKS = "/api/extras/webhooks/";

async function checked(method: Method, path: string, template: string, body?: unknown): Promise<Reply> {
  const reply = await call(method.toUpperCase(), path, body === undefined ? {} : { body });
  contract.check(method, template, reply);
  return reply;
}

describe("inventory e2e: object changes (read only) and webhooks", () => {
  const tag = uniq("log").toLowerCase();

  describe("object changes", () => {
    const request = randomUUID();
    const goneId = randomUUID();
    let site: { id: string; url: string; name: string; slug: string; display: string };
    let adminId: string;
    let siteType: number;

    before(async () => {
      const { db } = await startTestServer();
      // Made without a request, so the server records no change of its own among the test's.
      const [{ id }] = await db("dcim_site").insert({ name: `${tag} Site`, slug: `${tag}-site`, status: "active" }).returning("id");
      site = (await get(`/api/dcim/sites/${id}/`)).body;
      adminId = (await db("users_user").where("username", "admin").first()).id;
      siteType = (await db("extras_contenttype").where({ app_label: "dcim", model: "site" }).first()).id;
      await db("extras_objectchange").insert([
        {
          time: "2024-03-01T10:00:00Z", user_id: adminId, user_name: "admin", request_id: request, action: "create",
          changed_object_type: "dcim.site", changed_object_id: site.id, object_repr: `${tag} Site`,
          object_data: JSON.stringify({ name: `${tag} Site` }), change_context: "web",
        },
        {
          time: "2024-03-02T10:00:00Z", user_id: adminId, user_name: "admin", request_id: request, action: "update",
          changed_object_type: "dcim.site", changed_object_id: site.id, object_repr: `${tag} Site`,
          object_data: JSON.stringify({ name: `${tag} Site`, description: "x" }), change_context: "web",
        },
        {
          time: "2024-03-03T10:00:00Z", user_name: "Undefined", request_id: randomUUID(), action: "delete",
          changed_object_type: "dcim.region", changed_object_id: goneId, object_repr: `${tag} Gone`,
          object_data: JSON.stringify({ name: `${tag} Gone` }), change_context: "orm",
        },
      ]);
    });

    const listed = async (query: string) =>
      (await checked("get", `${CHANGES}?q=${tag}&${query}`, CHANGES)).body.results.map((c: { action: { value: string } }) => c.action.value);

    it("lists the newest first, each as Nautobot's serializer shows it: the changed object nested, or null once gone", async () => {
      const list = await checked("get", `${CHANGES}?q=${tag}`, CHANGES);
      expect(list.body.count).to.equal(3);
      const [gone, update, create] = list.body.results;
      expect(Object.keys(create)).to.deep.equal([
        "id", "display", "url", "time", "user", "user_name", "request_id", "action", "changed_object_type", "changed_object_id", "changed_object", "object_data",
      ]);
      expect(create).to.deep.include({
        display: `DCIM | site ${tag} Site created by admin`,
        time: "2024-03-01T10:00:00.000000Z",
        user_name: "admin",
        request_id: request,
        action: { value: "create", label: "Created" },
        changed_object_type: "dcim.site",
        changed_object_id: site.id,
        changed_object: { id: site.id, url: site.url, display: site.display, name: site.name, slug: site.slug },
        object_data: { name: `${tag} Site` },
      });
      expect(create.user).to.deep.include({ id: adminId, username: "admin" });
      expect(update.display).to.equal(`DCIM | site ${tag} Site updated by admin`);
      expect(gone).to.deep.include({ display: `DCIM | region ${tag} Gone deleted by Undefined`, user: null, changed_object: null, changed_object_id: goneId });

      const detail = await checked("get", `${CHANGES}${create.id}/`, `${CHANGES}{id}/`);
      expect(detail.body).to.deep.equal(create);
      const brief = await checked("get", `${CHANGES}${create.id}/?brief=1`, `${CHANGES}{id}/`);
      expect(brief.body).to.deep.equal({ id: create.id, url: create.url, display: create.display });
    });

    it("filters as Nautobot's ObjectChangeFilterSet", async () => {
      expect(await listed("")).to.deep.equal(["delete", "update", "create"]);
      expect(await listed("user=admin")).to.deep.equal(["update", "create"]);
      expect(await listed(`user_id=${adminId}`)).to.deep.equal(["update", "create"]);
      expect(await listed("user__n=admin")).to.deep.equal(["delete"]);
      expect(await listed("user_name=Undefined")).to.deep.equal(["delete"]);
      expect(await listed(`request_id=${request}`)).to.deep.equal(["update", "create"]);
      expect(await listed("action=create&action=delete")).to.deep.equal(["delete", "create"]);
      expect(await listed("action__n=update")).to.deep.equal(["delete", "create"]);
      expect(await listed("changed_object_type=dcim.region")).to.deep.equal(["delete"]);
      expect(await listed(`changed_object_type_id=${siteType}`)).to.deep.equal(["update", "create"]);
      expect(await listed(`changed_object_type_id__n=${siteType}`)).to.deep.equal(["delete"]);
      expect(await listed(`changed_object_id=${site.id}`)).to.deep.equal(["update", "create"]);
      expect(await listed(`object_repr__ic=${encodeURIComponent(`${tag} go`)}`)).to.deep.equal(["delete"]);
      expect(await listed("time__gte=2024-03-02T00:00:00Z")).to.deep.equal(["delete", "update"]);
      expect(await listed("time__lt=2024-03-02T00:00:00Z")).to.deep.equal(["create"]);
      expect(await listed("time=2024-03-03T10:00:00Z")).to.deep.equal(["delete"]);

      const cases: Array<[string, Record<string, string[]>]> = [
        ["action=created", { action: ["Select a valid choice. created is not one of the available choices."] }],
        ["changed_object_type_id=dcim.site", { changed_object_type_id: ["“dcim.site” is not a valid value."] }],
        ["changed_object_type_id=2147483000", { changed_object_type_id: ["Select a valid choice. 2147483000 is not one of the available choices."] }],
        ["request_id=nope", { request_id: ["Enter a valid UUID."] }],
        ["time__gte=yesterday", { time__gte: ["Enter a valid date/time."] }],
        ["user=nobody-at-all", { user: ["Select a valid choice. nobody-at-all is not one of the available choices."] }],
        // Hidden fields filter nothing, as Nautobot's filter set names none of them.
        ["change_context=web", { change_context: ["Unknown filter field"] }],
        ["related_object_id=00000000-0000-4000-8000-000000000000", { related_object_id: ["Unknown filter field"] }],
      ];
      for (const [query, errors] of cases) {
        const res = await checked("get", `${CHANGES}?${query}`, CHANGES);
        expect([res.status, res.body], query).to.deep.equal([400, errors]);
      }
    });

    it("takes no writes: POST, PUT, PATCH and DELETE are 405 and change nothing", async () => {
      const one = (await get(`${CHANGES}?q=${tag}&action=create`)).body.results[0];
      const before = await rows("extras_objectchange");
      for (const [method, path] of [["POST", CHANGES], ["PUT", CHANGES], ["PATCH", CHANGES], ["DELETE", CHANGES],
        ["PUT", `${CHANGES}${one.id}/`], ["PATCH", `${CHANGES}${one.id}/`], ["DELETE", `${CHANGES}${one.id}/`]] as const) {
        const res = await call(method, path, { body: method === "POST" ? { action: "create" } : [] });
        expect([res.status, res.body], `${method} ${path}`).to.deep.equal([405, { detail: `Method "${method}" not allowed.` }]);
        expect(res.headers.get("allow"), path).to.equal("GET, HEAD, OPTIONS");
      }
      expect(await rows("extras_objectchange")).to.equal(before);
      // OPTIONS offers no write action.
      const options = await call("OPTIONS", CHANGES);
      contract.check("options", CHANGES, options);
      expect(options.body).to.not.have.property("actions");
    });

    it("keeps a change when its user goes: no user, the username as it was", async () => {
      const { db } = await startTestServer();
      const temp = (await post("/api/users/users/", { username: `${tag}-temp`, password: "secret-1" })).body;
      await db("extras_objectchange").insert({
        user_id: temp.id, user_name: temp.username, request_id: randomUUID(), action: "update",
        changed_object_type: "dcim.site", changed_object_id: site.id, object_repr: `${tag} Temp`, object_data: "{}", change_context: "web",
      });
      expect((await call("DELETE", `/api/users/users/${temp.id}/`)).status).to.equal(204);
      const kept = (await get(`${CHANGES}?object_repr=${encodeURIComponent(`${tag} Temp`)}`)).body.results;
      expect(kept.map((c: { user: unknown; user_name: string }) => [c.user, c.user_name])).to.deep.equal([[null, `${tag}-temp`]]);
    });
  });

  describe("webhooks", () => {
    const url = `https://hooks.example/${tag}`;
    const base = { content_types: ["dcim.site"], payload_url: url };

    it("creates a webhook with Nautobot's defaults and fields", async () => {
      const made = await checked("post", WEBHOOKS, WEBHOOKS, { ...base, name: `${tag} sites`, type_create: true });
      expect(made.status, made.text).to.equal(201);
      expect(Object.keys(made.body)).to.deep.equal([
        "id", "display", "url", "content_types", "name", "type_create", "type_update", "type_delete", "payload_url", "http_method", "http_content_type",
        "additional_headers", "body_template", "secret", "ssl_verification", "ca_file_path", "created", "last_updated", "notes_url",
      ]);
      expect(made.body).to.deep.include({
        display: `${tag} sites`, content_types: ["dcim.site"], type_create: true, type_update: false, type_delete: false, payload_url: url,
        http_method: { value: "POST", label: "POST" }, http_content_type: "application/json", additional_headers: "", body_template: "",
        secret: "", ssl_verification: true, ca_file_path: null,
      });
      const stored = await (await startTestServer()).db("extras_webhook").where("id", made.body.id).first();
      expect(stored.enabled).to.equal(true);
      const brief = await checked("get", `${WEBHOOKS}${made.body.id}/?brief=1`, `${WEBHOOKS}{id}/`);
      expect(brief.body).to.deep.equal({ id: made.body.id, url: made.body.url, display: `${tag} sites`, name: `${tag} sites` });
    });

    it("refuses a webhook for no kind of change, and a CA file without SSL verification (Webhook.clean)", async () => {
      const none = await checked("post", WEBHOOKS, WEBHOOKS, { ...base, name: `${tag} none`, payload_url: `${url}/none` });
      expect([none.status, none.body]).to.deep.equal([400, { non_field_errors: ["You must select at least one type: create, update, and/or delete."] }]);
      const ca = await checked("post", WEBHOOKS, WEBHOOKS, { ...base, name: `${tag} ca`, payload_url: `${url}/ca`, type_delete: true, ssl_verification: false, ca_file_path: "/etc/ca.pem" });
      expect([ca.status, ca.body]).to.deep.equal([400, { ca_file_path: ["Do not specify a CA certificate file if SSL verification is disabled."] }]);
      const fine = await checked("post", WEBHOOKS, WEBHOOKS, { ...base, name: `${tag} ca`, payload_url: `${url}/ca`, type_delete: true, ca_file_path: "/etc/ca.pem" });
      expect(fine.status, fine.text).to.equal(201);
      // A change that would leave the stored webhook so is refused too.
      const off = await checked("patch", `${WEBHOOKS}${fine.body.id}/`, `${WEBHOOKS}{id}/`, { ssl_verification: false });
      expect([off.status, off.body]).to.deep.equal([400, { ca_file_path: ["Do not specify a CA certificate file if SSL verification is disabled."] }]);
      const noType = await checked("patch", `${WEBHOOKS}${fine.body.id}/`, `${WEBHOOKS}{id}/`, { type_delete: false });
      expect(noType.status).to.equal(400);
      expect(await rows("extras_webhook", { name: `${tag} none` })).to.equal(0);
      expect((await get(`${WEBHOOKS}${fine.body.id}/`)).body).to.deep.include({ ssl_verification: true, type_delete: true });
    });

    it("refuses another webhook for the same kind of change of a content type to the same URL", async () => {
      const first = (await post(WEBHOOKS, { ...base, name: `${tag} c1`, payload_url: `${url}/c`, content_types: ["dcim.site", "dcim.region"], type_create: true, type_update: true })).body;
      const clash = await checked("post", WEBHOOKS, WEBHOOKS, {
        ...base, name: `${tag} c2`, payload_url: `${url}/c`, content_types: ["dcim.region", "dcim.device", "dcim.site"], type_create: true, type_update: true, type_delete: true,
      });
      expect([clash.status, clash.body]).to.deep.equal([400, {
        type_create: [`A webhook already exists for create on DCIM | region to URL ${url}/c`, `A webhook already exists for create on DCIM | site to URL ${url}/c`],
        type_update: [`A webhook already exists for update on DCIM | region to URL ${url}/c`, `A webhook already exists for update on DCIM | site to URL ${url}/c`],
      }]);
      // Another URL, another kind of change or another content type is no conflict.
      for (const [name, body] of [
        ["c3", { payload_url: `${url}/other`, content_types: ["dcim.site"], type_create: true }],
        ["c4", { payload_url: `${url}/c`, content_types: ["dcim.site"], type_delete: true }],
        ["c5", { payload_url: `${url}/c`, content_types: ["dcim.device"], type_create: true }],
      ] as const) {
        const res = await post(WEBHOOKS, { ...body, name: `${tag} ${name}` });
        expect(res.status, res.text).to.equal(201);
      }
      // A webhook never conflicts with itself; a change that makes it overlap another does.
      expect((await patch(`${WEBHOOKS}${first.id}/`, { name: `${tag} c1x` })).status).to.equal(200);
      const c4 = (await get(`${WEBHOOKS}?name=${encodeURIComponent(`${tag} c4`)}`)).body.results[0];
      const widened = await checked("patch", `${WEBHOOKS}${c4.id}/`, `${WEBHOOKS}{id}/`, { type_update: true });
      expect([widened.status, widened.body]).to.deep.equal([400, { type_update: [`A webhook already exists for update on DCIM | site to URL ${url}/c`] }]);
    });

    it("filters as Nautobot's WebhookFilterSet, enabled included though the serializer hides it", async () => {
      const names = async (query: string) =>
        (await checked("get", `${WEBHOOKS}?q=${encodeURIComponent(tag)}&${query}`, WEBHOOKS)).body.results.map((w: { name: string }) => w.name.slice(tag.length + 1));
      expect(await names("type_delete=true")).to.deep.equal(["c4", "ca"]);
      expect(await names("content_types=dcim.device")).to.deep.equal(["c5"]);
      expect(await names(`payload_url=${encodeURIComponent(`${url}/other`)}`)).to.deep.equal(["c3"]);
      expect(await names("enabled=true&name__ie=" + encodeURIComponent(`${tag} C3`))).to.deep.equal(["c3"]);
      expect(await names("enabled=false")).to.deep.equal([]);
      for (const param of ["id=00000000-0000-4000-8000-000000000000", "secret=x", "http_method=POST"]) {
        expect((await get(`${WEBHOOKS}?${param}`)).status, param).to.equal(400);
      }
    });
  });
});
