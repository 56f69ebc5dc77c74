// Custom fields as Nautobot 1.5 serves them to API 1.2 and 1.3: definitions at
// /api/extras/custom-fields/ (CustomFieldSerializerVersion12) and their choices, the values on
// every model with the feature (keyed by name, every field shown, defaults filled, updates
// merged, judged by CustomField.validate), defaults written into existing objects, values
// removed with their definition, the `cf_` filters, and a second server instance on the same
// database seeing each change at once.
import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apis } from "../../../generated/server.js";
import { configFromEnv } from "../../../runtime/config.js";
import { createApp } from "../../../runtime/server.js";
import { call, del, get, patch, post } from "../../support/http.js";
import { startTestServer } from "../../support/server.js";
import { row, uniq } from "./support.js";

const CFS = "/api/extras/custom-fields/";
const CHOICES = "/api/extras/custom-field-choices/";
const PROVIDERS = "/api/circuits/providers/";
const RIRS = "/api/ipam/rirs/";
const V13 = { headers: { Accept: "application/json; version=1.3" } };

/** Custom field names are data keys: letters and underscores, unique per run. */
const cfName = (prefix: string) => uniq(prefix).replace(/-/g, "_");

const made: string[] = [];
const servers: Server[] = [];

async function defineField(data: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(CFS, { content_types: ["circuits.provider"], ...data });
  expect(res.status, res.text).to.equal(201);
  made.push(res.body.id);
  return res.body;
}

async function choice(field: string, value: string, weight = 100): Promise<void> {
  const res = await post(CHOICES, { field, value, weight });
  expect(res.status, res.text).to.equal(201);
}

async function provider(data: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const name = uniq("cf-provider");
  const res = await post(PROVIDERS, { name, ...data });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

/** The names of the providers a filtered list gives, among `names`. */
async function matching(query: string, names: string[]): Promise<string[]> {
  const res = await get(`${PROVIDERS}?limit=1000&${query}`);
  expect(res.status, `${query}: ${res.text}`).to.equal(200);
  return res.body.results.map((p: { name: string }) => p.name).filter((n: string) => names.includes(n)).sort();
}

describe("inventory e2e: custom fields", () => {
  after(async () => {
    for (const id of made) await del(`${CFS}${id}/`);
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
  });

  describe("definitions", () => {
    it("API 1.2 and 1.3: the label comes from the name and the slug from the label, with underscores", async () => {
      const name = cfName("Contract-Level");
      const cf = await defineField({ name, type: "text" });
      expect(Object.keys(cf)).to.deep.equal([
        "id", "display", "url", "content_types", "type", "label", "name", "slug", "description", "required", "filter_logic", "default",
        "weight", "validation_minimum", "validation_maximum", "validation_regex", "created", "last_updated",
      ]);
      expect(cf).to.deep.include({
        display: name, content_types: ["circuits.provider"], type: { value: "text", label: "Text" }, label: name, name,
        slug: name.toLowerCase(), description: "", required: false, filter_logic: { value: "loose", label: "Loose" }, default: null,
        weight: 100, validation_minimum: null, validation_maximum: null, validation_regex: "",
      });
      const labelled = await defineField({ name: cfName("x"), label: "Uplink Speed-Class", type: "integer" });
      expect(labelled.slug).to.equal("uplink_speed_class");
      const v13 = await get(`${CFS}${cf.id}/`, V13);
      expect(v13.body).to.deep.equal((await get(`${CFS}${cf.id}/`)).body);
      const nested = await get(`${CHOICES}?limit=1`);
      expect(nested.status).to.equal(200);
    });

    it("name, slug and type cannot change once created", async () => {
      const cf = await defineField({ name: cfName("fixed"), type: "text" });
      for (const [body, error] of [
        [{ name: "other" }, { name: ["Name cannot be changed once created"] }],
        [{ slug: "other" }, { slug: ["Slug cannot be changed once created"] }],
        [{ type: "integer" }, { type: ["Type cannot be changed once created"] }],
      ] as const) {
        const res = await patch(`${CFS}${cf.id}/`, body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(error);
      }
      expect((await patch(`${CFS}${cf.id}/`, { description: "still editable", weight: 5 })).status).to.equal(200);
    });

    it("the default is judged as a value; min/max only for integers; a regex only for text, URL and selections, and it must compile", async () => {
      const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
        [{ type: "integer", default: "abc" }, { default: ['Invalid default value "abc": Value must be an integer.'] }],
        [{ type: "integer", default: 9, validation_maximum: 5 }, { default: ['Invalid default value "9": Value must not exceed 5'] }],
        [{ type: "boolean", default: "yes" }, { default: ['Invalid default value "yes": Value must be true or false.'] }],
        [{ type: "date", default: "2021-13-01" }, { default: ['Invalid default value "2021-13-01": Date values must be in the format YYYY-MM-DD.'] }],
        [{ type: "text", default: 5 }, { default: ['Invalid default value "5": Value must be a string'] }],
        [{ type: "select", default: "gold" }, { default: ['Invalid default value "gold": Invalid choice (gold). Available choices are: '] }],
        [{ type: "text", validation_minimum: 1 }, { validation_minimum: ["A minimum value may be set only for numeric fields"] }],
        [{ type: "url", validation_maximum: 1 }, { validation_maximum: ["A maximum value may be set only for numeric fields"] }],
        [{ type: "integer", validation_regex: "^a" }, { validation_regex: ["Regular expression validation is supported only for text, URL and select fields"] }],
        [{ type: "text", validation_regex: "(" }, { validation_regex: ["( is not a valid regular expression."] }],
        [{ type: "color" }, { type: ["color is not a valid choice."] }],
        [{ type: "text", filter_logic: "fuzzy" }, { filter_logic: ["fuzzy is not a valid choice."] }],
        [{ type: "text", content_types: ["users.token"] }, { content_types: ["Invalid content type: users.token"] }],
      ];
      for (const [body, error] of cases) {
        const res = await post(CFS, { name: cfName("bad"), content_types: ["circuits.provider"], ...body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.deep.equal(error);
      }
      const ok = await defineField({ name: cfName("ranged"), type: "integer", validation_minimum: -5, validation_maximum: 5, default: 0 });
      expect(ok.default).to.equal(0);
    });

    it("choices: only for selection fields, each matching the field's regex; a select default must be one of them", async () => {
      const text = await defineField({ name: cfName("notsel"), type: "text" });
      const refused = await post(CHOICES, { field: text.id, value: "a" });
      expect(refused.status).to.equal(400);
      expect(refused.body).to.deep.equal({ __all__: ["Custom field choices can only be assigned to selection fields."] });
      const sel = await defineField({ name: cfName("sel"), type: "select", validation_regex: "^[a-z]+$" });
      const mismatch = await post(CHOICES, { field: sel.id, value: "Gold1" });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.body).to.deep.equal({ __all__: ["Value must match regex ^[a-z]+$ got Gold1."] });
      await choice(sel.id, "silver", 20);
      await choice(sel.id, "gold", 10);
      const listed = await get(`${CHOICES}?field=${sel.id}`);
      expect(listed.body.results.map((c: { value: string }) => c.value)).to.deep.equal(["gold", "silver"]);
      expect(listed.body.results[0].field).to.deep.equal({ id: sel.id, url: sel.url, display: sel.display, name: sel.name });
      const badDefault = await patch(`${CFS}${sel.id}/`, { default: "bronze" });
      expect(badDefault.body).to.deep.equal({ default: ['Invalid default value "bronze": Invalid choice (bronze). Available choices are: gold, silver'] });
      expect((await patch(`${CFS}${sel.id}/`, { default: "gold" })).status).to.equal(200);
    });
  });

  describe("values", () => {
    let names: Record<string, string>;

    before(async () => {
      names = {
        text: cfName("v_text"), integer: cfName("v_int"), boolean: cfName("v_bool"), date: cfName("v_date"), url: cfName("v_url"),
        select: cfName("v_sel"), multi: cfName("v_multi"), json: cfName("v_json"),
      };
      await defineField({ name: names.text, type: "text", validation_regex: "^[A-Z]" });
      await defineField({ name: names.integer, type: "integer", validation_minimum: 1, validation_maximum: 10, default: 5 });
      await defineField({ name: names.boolean, type: "boolean" });
      await defineField({ name: names.date, type: "date" });
      await defineField({ name: names.url, type: "url" });
      const sel = await defineField({ name: names.select, type: "select" });
      const multi = await defineField({ name: names.multi, type: "multi-select" });
      await defineField({ name: names.json, type: "json" });
      for (const v of ["a", "b"]) { await choice(sel.id, v); await choice(multi.id, v); }
    });

    it("each type takes its good values and refuses bad ones, under __all__ in Nautobot's words", async () => {
      const good: Array<[string, unknown]> = [
        [names.text, "Hello"], [names.integer, 10], [names.integer, 1], [names.boolean, true], [names.boolean, 0], [names.date, "2024-02-29"],
        [names.url, "not checked as a URL"], [names.select, "b"], [names.multi, ["a", "b"]], [names.json, { any: ["thing", 1] }],
      ];
      for (const [name, value] of good) {
        const res = await post(PROVIDERS, { name: uniq("cf-good"), custom_fields: { [name]: value } });
        expect(res.status, `${name}=${JSON.stringify(value)}: ${res.text}`).to.equal(201);
        expect(res.body.custom_fields[name]).to.deep.equal(value);
      }
      const bad: Array<[string, unknown, string]> = [
        [names.text, 5, "Value must be a string"],
        [names.text, "hello", "Value must match regex '^[A-Z]'"],
        [names.integer, "ten", "Value must be an integer."],
        [names.integer, 0, "Value must be at least 1"],
        [names.integer, 11, "Value must not exceed 10"],
        [names.boolean, "yes", "Value must be true or false."],
        [names.date, "2023-02-29", "Date values must be in the format YYYY-MM-DD."],
        [names.url, ["x"], "Value must be a string"],
        [names.select, "c", "Invalid choice (c). Available choices are: a, b"],
        [names.multi, ["a", "z"], "Invalid choice(s) (['a', 'z']). Available choices are: a, b"],
      ];
      for (const [name, value, message] of bad) {
        const res = await post(PROVIDERS, { name: uniq("cf-bad"), custom_fields: { [name]: value } });
        expect(res.status, `${name}=${JSON.stringify(value)}`).to.equal(400);
        expect(res.body).to.deep.equal({ __all__: [`Invalid value for custom field '${name}': ${message}`] });
      }
      const notObject = await post(PROVIDERS, { name: uniq("cf-bad"), custom_fields: [1] });
      expect([notObject.status, notObject.body]).to.deep.equal([400, { custom_fields: ["Expected a dictionary of custom field values."] }]);
    });

    it("a create fills every default (or null); given keys are set and the others default; an update merges", async () => {
      const plain = await provider();
      expect(plain.custom_fields[names.integer]).to.equal(5);
      expect(plain.custom_fields[names.text]).to.equal(null);
      expect(Object.keys(plain.custom_fields)).to.include.members(Object.values(names));
      const given = await provider({ custom_fields: { [names.text]: "Given" } });
      expect(given.custom_fields).to.deep.include({ [names.text]: "Given", [names.integer]: 5, [names.select]: null });
      const merged = await patch(`${PROVIDERS}${given.id}/`, { custom_fields: { [names.select]: "a" } });
      expect(merged.status).to.equal(200);
      expect(merged.body.custom_fields).to.deep.include({ [names.text]: "Given", [names.integer]: 5, [names.select]: "a" });
      const cleared = await patch(`${PROVIDERS}${given.id}/`, { custom_fields: { [names.select]: null } });
      expect(cleared.body.custom_fields[names.select]).to.equal(null);
      // Unknown keys are kept as Nautobot keeps them, and never shown.
      const unknown = await patch(`${PROVIDERS}${given.id}/`, { custom_fields: { no_such_field: 1 } });
      expect(unknown.status).to.equal(200);
      expect(unknown.body.custom_fields).to.not.have.key("no_such_field");
      expect((await get(`${PROVIDERS}${given.id}/`, V13)).body.custom_fields).to.deep.equal(unknown.body.custom_fields);
    });

    it("a required field: refused when empty, filled from its default when it has one", async () => {
      const rir = (await post(RIRS, { name: uniq("cf-rir") })).body;
      const name = cfName("req");
      const cf = await post(CFS, { name, type: "text", required: true, content_types: ["ipam.rir"] });
      made.push(cf.body.id);
      const missing = await post(RIRS, { name: uniq("cf-rir") });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ __all__: [`Invalid value for custom field '${name}': Required field cannot be empty.`] });
      const other = await post(RIRS, { name: uniq("cf-rir"), custom_fields: { other_key: 1 } });
      expect(other.body).to.deep.equal({ __all__: [`Missing required custom field '${name}'.`] });
      expect((await post(RIRS, { name: uniq("cf-rir"), custom_fields: { [name]: "x" } })).status).to.equal(201);
      // The existing RIR got the field's (null) default, and is refused until it gets a value.
      const stale = await patch(`${RIRS}${rir.id}/`, { custom_fields: { [name]: "" } });
      expect(stale.body).to.deep.equal({ __all__: [`Invalid value for custom field '${name}': Required field cannot be empty.`] });
      await patch(`${CFS}${cf.body.id}/`, { default: "filled" });
      expect((await post(RIRS, { name: uniq("cf-rir") })).body.custom_fields[name]).to.equal("filled");
    });
  });

  describe("definitions changing the data", () => {
    it("a new field's default is written into the existing objects of its content types; a removed type and a deleted field lose the values", async () => {
      const before = await provider();
      const name = cfName("backfill");
      const cf = await defineField({ name, type: "integer", default: 42 });
      expect((await row("circuits_provider", before.id))?.custom_field_data[name]).to.equal(42);
      expect((await get(`${PROVIDERS}${before.id}/`)).body.custom_fields[name]).to.equal(42);
      await patch(`${PROVIDERS}${before.id}/`, { custom_fields: { [name]: 7 } });
      // Adding a content type provisions it; removing one removes the values there.
      const rir = (await post(RIRS, { name: uniq("cf-rir") })).body;
      await patch(`${CFS}${cf.id}/`, { content_types: ["circuits.provider", "ipam.rir"] });
      expect((await row("ipam_rir", rir.id))?.custom_field_data[name]).to.equal(42);
      await patch(`${CFS}${cf.id}/`, { content_types: ["circuits.provider"] });
      expect((await row("ipam_rir", rir.id))?.custom_field_data).to.not.have.key(name);
      expect((await get(`${RIRS}${rir.id}/`)).body.custom_fields).to.not.have.key(name);
      expect((await row("circuits_provider", before.id))?.custom_field_data[name]).to.equal(7);
      // A write that leaves content_types alone touches no object's data.
      const { db } = await startTestServer();
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      try {
        expect((await patch(`${CFS}${cf.id}/`, { description: "only words" })).status).to.equal(200);
      } finally {
        db.removeListener("query", listen);
      }
      expect(sql.filter((s) => /custom_field_data/.test(s) && /^update/i.test(s.trim()))).to.deep.equal([]);
      expect((await del(`${CFS}${cf.id}/`)).status).to.equal(204);
      expect((await row("circuits_provider", before.id))?.custom_field_data).to.not.have.key(name);
      expect((await get(`${PROVIDERS}${before.id}/`)).body.custom_fields).to.not.have.key(name);
    });

    it("fields deleted together lose their values with one update per content type, however many fields go", async () => {
      const [a, b, c] = [cfName("gone_a"), cfName("gone_b"), cfName("kept")];
      const both = { content_types: ["circuits.provider", "ipam.rir"] };
      const gone = [await defineField({ name: a, type: "text", default: "x", ...both }), await defineField({ name: b, type: "integer", default: 1, ...both })];
      await defineField({ name: c, type: "text", default: "y" });
      const p = await provider();
      const rir = (await post(RIRS, { name: uniq("cf-rir") })).body;
      const { db } = await startTestServer();
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      try {
        const res = await del(CFS, gone.map((cf) => ({ id: cf.id })));
        expect(res.status, res.text).to.equal(204);
      } finally {
        db.removeListener("query", listen);
      }
      expect(sql.filter((s) => /custom_field_data/.test(s) && /^update/i.test(s.trim())), sql.join("\n")).to.have.length(2);
      expect((await row("circuits_provider", p.id))?.custom_field_data).to.deep.include({ [c]: "y" }).and.not.have.any.keys(a, b);
      expect((await row("ipam_rir", rir.id))?.custom_field_data).to.not.have.any.keys(a, b);
    });
  });

  describe("choices changing the data", () => {
    it("a renamed choice is renamed in the objects holding it; a choice that is the default or in use cannot be deleted", async () => {
      const sel = await defineField({ name: cfName("ren_sel"), type: "select" });
      const multi = await defineField({ name: cfName("ren_multi"), type: "multi-select" });
      for (const v of ["old", "keep"]) { await choice(sel.id, v); await choice(multi.id, v); }
      const choices = (await get(`${CHOICES}?limit=1000`)).body.results as Array<{ id: string; value: string; field: { id: string } }>;
      const idOf = (field: string, value: string) => choices.find((c) => c.field.id === field && c.value === value)!.id;
      const obj = await provider({ custom_fields: { [sel.name]: "old", [multi.name]: ["keep", "old"] } });
      const inUse = await del(`${CHOICES}${idOf(sel.id, "old")}/`);
      expect(inUse.status).to.equal(409);
      expect(inUse.body).to.deep.equal({ detail: `Unable to delete object. 1 dependent objects were found: old (${idOf(sel.id, "old")})` });
      expect((await del(`${CHOICES}${idOf(multi.id, "old")}/`)).status).to.equal(409);
      expect((await patch(`${CHOICES}${idOf(sel.id, "old")}/`, { value: "new" })).status).to.equal(200);
      expect((await patch(`${CHOICES}${idOf(multi.id, "old")}/`, { value: "new" })).status).to.equal(200);
      expect((await get(`${PROVIDERS}${obj.id}/`)).body.custom_fields).to.deep.include({ [sel.name]: "new", [multi.name]: ["keep", "new"] });
      await patch(`${CFS}${sel.id}/`, { default: "keep" });
      const isDefault = await del(`${CHOICES}${idOf(sel.id, "keep")}/`);
      expect(isDefault.status).to.equal(409);
      await patch(`${PROVIDERS}${obj.id}/`, { custom_fields: { [multi.name]: [] } });
      expect((await del(`${CHOICES}${idOf(multi.id, "keep")}/`)).status).to.equal(204);
    });

    it("choices deleted together are checked at once: one in use refuses them all, naming it; free ones go with one check per content type", async () => {
      const sel = await defineField({ name: cfName("bulk_sel"), type: "select" });
      const multi = await defineField({ name: cfName("bulk_multi"), type: "multi-select" });
      for (const v of ["a", "b", "c"]) { await choice(sel.id, v); await choice(multi.id, v); }
      const choices = (await get(`${CHOICES}?limit=1000`)).body.results as Array<{ id: string; value: string; field: { id: string } }>;
      const idOf = (field: string, value: string) => choices.find((c) => c.field.id === field && c.value === value)!.id;
      await provider({ custom_fields: { [sel.name]: "b", [multi.name]: ["a", "c"] } });
      const refused = await del(CHOICES, [{ id: idOf(sel.id, "a") }, { id: idOf(multi.id, "b") }, { id: idOf(multi.id, "c") }, { id: idOf(sel.id, "b") }]);
      expect([refused.status, refused.body]).to.deep.equal([409, { detail: `Unable to delete object. 1 dependent objects were found: c (${idOf(multi.id, "c")})` }]);
      const { db } = await startTestServer();
      const sql: string[] = [];
      const listen = (q: { sql: string }) => sql.push(q.sql);
      db.on("query", listen);
      try {
        const res = await del(CHOICES, [{ id: idOf(sel.id, "a") }, { id: idOf(multi.id, "b") }, { id: idOf(sel.id, "c") }]);
        expect(res.status, res.text).to.equal(204);
      } finally {
        db.removeListener("query", listen);
      }
      expect(sql.filter((s) => /circuits_provider/.test(s)), sql.join("\n")).to.have.length(1);
    });
  });

  describe("filters", () => {
    const f: Record<string, string> = {};
    const p: Record<string, string> = {};
    let all: string[];

    before(async () => {
      f.loose = (await defineField({ name: cfName("f_loose"), type: "text" })).name;
      f.exact = (await defineField({ name: cfName("f_exact"), type: "text", filter_logic: "exact" })).name;
      f.off = (await defineField({ name: cfName("f_off"), type: "text", filter_logic: "disabled" })).name;
      f.int = (await defineField({ name: cfName("f_int"), type: "integer" })).name;
      f.bool = (await defineField({ name: cfName("f_bool"), type: "boolean" })).name;
      f.date = (await defineField({ name: cfName("f_date"), type: "date" })).name;
      const sel = await defineField({ name: cfName("f_sel"), type: "select" });
      const multi = await defineField({ name: cfName("f_multi"), type: "multi-select" });
      f.sel = sel.name;
      f.multi = multi.name;
      f.json = (await defineField({ name: cfName("f_json"), type: "json" })).name;
      for (const v of ["red", "green", "blue"]) { await choice(sel.id, v); await choice(multi.id, v); }
      const data: Record<string, Record<string, unknown>> = {
        one: { [f.loose]: "Alpha Beta", [f.exact]: "Alpha", [f.off]: "x", [f.int]: 1, [f.bool]: true, [f.date]: "2024-01-01", [f.sel]: "red", [f.multi]: ["red", "green"], [f.json]: { k: "needle" } },
        two: { [f.loose]: "gamma", [f.exact]: "alpha", [f.int]: 20, [f.bool]: false, [f.date]: "2024-06-30", [f.sel]: "blue", [f.multi]: ["blue"] },
        three: {},
      };
      for (const [key, cf] of Object.entries(data)) p[key] = (await provider({ custom_fields: cf })).name;
      all = Object.values(p);
    });

    it("loose text is a case-insensitive contains; exact is equality; disabled has no filter", async () => {
      expect(await matching(`cf_${f.loose}=BETA`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.json}=NEEDLE`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.exact}=Alpha`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.exact}=Alp`, all)).to.deep.equal([]);
      const off = await get(`${PROVIDERS}?cf_${f.off}=x`);
      expect(off.status).to.equal(400);
      expect(off.body).to.deep.equal({ [`cf_${f.off}`]: ["Unknown filter field"] });
      expect((await get(`${PROVIDERS}?cf_${f.off}__ic=x`)).status).to.equal(400);
    });

    it("each type's plain filter, and `null`; a plain filter takes one value only (the seed's rule: a 400 otherwise)", async () => {
      expect(await matching(`cf_${f.int}=20`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.bool}=true`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.bool}=False`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.date}=2024-06-30`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.sel}=red`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.multi}=green`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.sel}=null`, all)).to.deep.equal([p.three]);
      expect(await matching(`cf_${f.loose}=null`, all)).to.deep.equal([p.three]);
      for (const twice of [`cf_${f.int}=1&cf_${f.int}=20`, `cf_${f.sel}=blue&cf_${f.sel}=red`]) {
        const res = await get(`${PROVIDERS}?${twice}`);
        expect([res.status, res.body]).to.deep.equal([400, { [twice.split("=")[0]]: ["Only one value may be given for this filter."] }]);
      }
      const bad = await get(`${PROVIDERS}?cf_${f.int}=x&cf_${f.date}=2024-02-30`);
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ [`cf_${f.int}`]: ["Enter a whole number."], [`cf_${f.date}`]: ["Enter a valid date."] });
    });

    it("lookups per type take several values; negated ones keep the objects without a value", async () => {
      expect(await matching(`cf_${f.loose}__ic=ALPHA&cf_${f.loose}__ic=gam`, all)).to.deep.equal([p.one, p.two].sort());
      expect(await matching(`cf_${f.loose}__nic=alpha`, all)).to.deep.equal([p.two, p.three].sort());
      expect(await matching(`cf_${f.loose}__isw=gA`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.loose}__iew=TA`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.exact}__ie=ALPHA`, all)).to.deep.equal([p.one, p.two].sort());
      expect(await matching(`cf_${f.exact}__n=Alpha`, all)).to.deep.equal([p.two, p.three].sort());
      expect(await matching(`cf_${f.exact}__re=^a`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.exact}__ire=^a`, all)).to.deep.equal([p.one, p.two].sort());
      expect(await matching(`cf_${f.sel}__n=red`, all)).to.deep.equal([p.two, p.three].sort());
      expect(await matching(`cf_${f.int}__gte=2`, all)).to.deep.equal([p.two]);
      expect(await matching(`cf_${f.int}__lt=20&cf_${f.int}__gt=0`, all)).to.deep.equal([p.one]);
      expect(await matching(`cf_${f.int}__n=1&cf_${f.int}__n=20`, all)).to.deep.equal([p.three]);
      // JSON values compare as PostgreSQL orders jsonb (null first), as Django's key lookups do.
      expect(await matching(`cf_${f.date}__lte=2024-03-01`, all)).to.deep.equal([p.one, p.three].sort());
      expect(await matching(`cf_${f.date}__gt=2024-03-01`, all)).to.deep.equal([p.two]);
      for (const none of [`cf_${f.bool}__n=true`, `cf_${f.multi}__ic=r`, `cf_${f.json}__ic=x`]) {
        expect((await get(`${PROVIDERS}?${none}`)).body).to.deep.equal({ [none.split("=")[0]]: ["Unknown filter field"] });
      }
      const badRegex = await get(`${PROVIDERS}?cf_${f.loose}__re=(`);
      expect(badRegex.status).to.equal(400);
      expect(badRegex.body).to.deep.equal({ [`cf_${f.loose}__re`]: ['"(" is not a valid regular expression.'] });
      expect((await get(`${PROVIDERS}?cf_${f.int}__gt=abc`)).body).to.deep.equal({ [`cf_${f.int}__gt`]: ["Enter a number."] });
    });
  });

  it("OPTIONS describes custom_fields as a field, with each custom field's type, label and choices", async () => {
    const name = cfName("opt_sel");
    const sel = await defineField({ name, label: "Option tier", type: "select", required: true, default: null });
    await choice(sel.id, "b", 2);
    await choice(sel.id, "a", 1);
    const res = await call("OPTIONS", PROVIDERS);
    const entry = res.body.actions.POST.custom_fields;
    expect(entry).to.deep.include({ type: "field", required: false, read_only: false, label: "Custom fields" });
    expect(entry.children[name]).to.deep.equal({
      type: "choice", required: true, read_only: false, label: "Option tier", choices: [{ value: "a", display_name: "a" }, { value: "b", display_name: "b" }],
    });
    const int = cfName("opt_int");
    await defineField({ name: int, type: "integer" });
    expect((await call("OPTIONS", PROVIDERS)).body.actions.POST.custom_fields.children[int]).to.deep.equal({ type: "integer", required: false, read_only: false, label: int });
    await del(`${CFS}${sel.id}/`);
  });

  it("a second server instance on the same database sees each definition change at once", async () => {
    const { db } = await startTestServer();
    const app = createApp(apis, db, { ...configFromEnv(), publicUrl: undefined, logRequests: false });
    const server: Server = await new Promise((resolve) => { const s = app.listen(0, "127.0.0.1", () => resolve(s)); });
    servers.push(server);
    const second = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const obj = await provider();
    const name = cfName("shared");
    expect((await get(`${second}${PROVIDERS}${obj.id}/`)).body.custom_fields).to.not.have.key(name);
    expect((await get(`${second}${PROVIDERS}?cf_${name}=on`)).status).to.equal(400);
    const cf = await defineField({ name, type: "text", default: "on" });
    expect((await get(`${second}${PROVIDERS}${obj.id}/`)).body.custom_fields[name]).to.equal("on");
    expect((await get(`${second}${PROVIDERS}?cf_${name}=on&name=${obj.name}`)).body.count).to.equal(1);
    const refused = await patch(`${second}${PROVIDERS}${obj.id}/`, { custom_fields: { [name]: 3 } });
    expect(refused.body).to.deep.equal({ __all__: [`Invalid value for custom field '${name}': Value must be a string`] });
    await del(`${CFS}${cf.id}/`);
    expect((await get(`${second}${PROVIDERS}${obj.id}/`)).body.custom_fields).to.not.have.key(name);
  });
});
