// CSV's column rules and cell reading (runtime/profiles/drf/csv-columns.ts, csv-import.ts), pure:
// the generated inventory descriptors, rendered objects in, header names, cells and JSON bodies
// out. The server side of both is test/e2e/inventory/csv.test.ts.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { ModelIndex } from "../../runtime/models.js";
import { ValidationError } from "../../runtime/errors.js";
import { csvColumns, text } from "../../runtime/profiles/drf/csv-columns.js";
import { csvBodies, csvRecords, csvRefusal } from "../../runtime/profiles/drf/csv-import.js";

const index = new ModelIndex(apis.find((a) => a.name === "inventory")!);
const site = index.model("dcim.site");
const REGION = "5b0f36a4-5b3c-4d0e-9a53-2c1a8f0f6a11";
const TAG = "0c7f5a3e-2a41-4f0e-8d8e-b1c0f2a9e3d4";

describe("unit: CSV columns and cells", () => {
  it("orders name, display and id first, names related objects by natural key, custom fields last and sorted", () => {
    const headers = csvColumns(index, site, { version: "1.5", exclude: [], include: [] }, ["b_key", "a_key"]).map((c) => c.header);
    expect(headers.slice(0, 7)).to.deep.equal(["name", "display", "id", "slug", "status", "region__slug", "tenant__slug"]);
    expect(headers.slice(-3)).to.deep.equal(["tags", "cf_a_key", "cf_b_key"]);
    for (const gone of ["url", "notes_url", "custom_fields", "computed_fields", "relationships"]) expect(headers).not.to.include(gone);
  });

  it("writes cells as Nautobot's renderer: choices by value, lists joined, null as NULL, no object as NoObject", () => {
    const columns = csvColumns(index, site, { version: "1.5", exclude: [], include: [] }, ["n"]);
    const cells = Object.fromEntries(columns.map((c) => [c.header, c.cell({
      name: "a", status: { value: "active", label: "Active" }, region: { id: REGION, slug: "eu" }, tenant: null, asn: null,
      tags: [{ id: TAG, slug: "gold" }, { id: TAG, slug: "silver" }], custom_fields: { n: 3 },
    })]));
    expect(cells).to.deep.include({ name: "a", status: "active", region__slug: "eu", tenant__slug: "NoObject", asn: "NULL", tags: "gold,silver", cf_n: "3" });
    expect([text(true), text(false), text({ a: 1 }), text([1, null, "x"])]).to.deep.equal(["True", "False", '{"a":1}', "1,,x"]);
  });

  it("reads rows into the JSON bodies a bulk create takes", () => {
    const { header, rows } = csvRecords(Buffer.from(
      `\ufeffname,region__slug,tenant,asn,latitude,tags,cf_n,cf_flags,id,device_count\r\n` +
      `a,eu,NoObject,65000,1.5,"gold,${TAG}",7,"x,y",ignored,9\r\nb,NoObject,,,,,,,,\r\n`,
    ));
    const bodies = csvBodies(index, site, header, rows, [{ key: "n", type: "integer" }, { key: "flags", type: "multi-select" }]);
    expect(bodies).to.deep.equal([
      { name: "a", tenant: null, asn: 65000, latitude: "1.5", tags: [{ slug: "gold" }, TAG], custom_fields: { n: 7, flags: ["x", "y"] }, region: { slug: "eu" } },
      { name: "b", tenant: null, asn: null, latitude: null, tags: [], custom_fields: { n: null, flags: null } },
    ]);
  });

  it("names each refusal by row and field, a custom field's as its column", () => {
    const refusal = csvRefusal(site, new ValidationError([
      {},
      { name: [{ code: "blank" }], __all__: [{ code: "custom_field_invalid", name: "n", reason: { code: "not_an_integer" } } as never] },
    ]));
    expect(refusal.status).to.equal(400);
    expect(refusal.body).to.deep.equal([
      { row: 2, field: "name", errors: ["This field may not be blank."] },
      { row: 2, field: "cf_n", errors: ["Invalid value for custom field 'n': Value must be an integer."] },
    ]);
  });
});
