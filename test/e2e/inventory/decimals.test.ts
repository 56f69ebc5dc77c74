// Decimal fields as DRF's DecimalField serves them (site latitude/longitude): written as a
// JSON number or a numeric string, shown as a string with exactly the field's decimal
// places, refused with DRF's own messages when a number has too many digits in all, after
// the point or before it. The Ansible collection's site module sends the strings.
import { expect } from "chai";
import { get, patch, post } from "../../support/http.js";
import { row, uniq } from "./support.js";

describe("inventory e2e: decimal fields", () => {
  it("takes strings and numbers, answers strings with six places, and stores the exact value", async () => {
    const res = await post("/api/dcim/sites/", { name: uniq("Dec"), status: "active", latitude: "22.169141", longitude: -97.4 });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.latitude).to.equal("22.169141");
    expect(res.body.longitude).to.equal("-97.400000");
    const stored = await row("dcim_site", res.body.id);
    expect(String(stored?.latitude)).to.equal("22.169141");

    const changed = await patch(`/api/dcim/sites/${res.body.id}/`, { latitude: " 1e1 ", longitude: null });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.latitude).to.equal("10.000000");
    expect(changed.body.longitude).to.equal(null);
  });

  it("refuses what DRF refuses, with its messages, and changes nothing", async () => {
    const site = await post("/api/dcim/sites/", { name: uniq("Dec"), status: "active", latitude: "1.5" });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ latitude: "north" }, { latitude: ["A valid number is required."] }],
      [{ latitude: true }, { latitude: ["A valid number is required."] }],
      [{ latitude: "123.5" }, { latitude: ["Ensure that there are no more than 2 digits before the decimal point."] }],
      [{ latitude: "1.1234567" }, { latitude: ["Ensure that there are no more than 6 decimal places."] }],
      [{ longitude: "1234567890" }, { longitude: ["Ensure that there are no more than 9 digits in total."] }],
    ];
    for (const [body, errors] of cases) {
      const res = await patch(`/api/dcim/sites/${site.body.id}/`, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body, JSON.stringify(body)).to.deep.equal(errors);
    }
    expect((await get(`/api/dcim/sites/${site.body.id}/`)).body.latitude).to.equal("1.500000");
  });

  it("filters with the number lookups", async () => {
    const name = uniq("DecF");
    await post("/api/dcim/sites/", { name, status: "active", latitude: "45.25", longitude: "7.5" });
    const hit = await get(`/api/dcim/sites/?name=${name}&latitude__gte=45.2&latitude__lt=45.3&longitude=7.5`);
    expect(hit.status, hit.text).to.equal(200);
    expect(hit.body.results.map((s: { name: string }) => s.name)).to.deep.equal([name]);
    expect((await get(`/api/dcim/sites/?name=${name}&latitude__gt=45.25`)).body.count).to.equal(0);
  });
});
