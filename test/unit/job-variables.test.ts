// A run's data against a job's variables, without a database: the cleaned values and Django's
// words for what the form fields behind Nautobot's variables refuse.
import { expect } from "chai";
import { vars, type Variable } from "../../runtime/features/jobs/define.js";
import { recordOf } from "../../runtime/features/jobs/variables.js";
import { JobDataError, describe as describeVariable, validateData } from "../../hooks/inventory/lib/job-data.js";

const records = (declared: Record<string, Variable>) => Object.entries(declared).map(([n, v]) => recordOf(n, v));
const SITE = "8f0b7bd2-0000-4000-8000-000000000001";
// Objects are found by id here; anything else names none.
const lookup = async (_model: string, values: unknown[]) => values.map((value) => (value === SITE || (value as { slug?: string })?.slug === "ams" ? SITE : null));

async function refusal(declared: Parameters<typeof records>[0], data: unknown): Promise<unknown> {
  try {
    await validateData(records(declared), data, lookup);
  } catch (err) {
    if (err instanceof JobDataError) return err.errors;
    throw err;
  }
  throw new Error("accepted");
}

describe("job variables", () => {
  it("describes a variable as Nautobot's variables endpoint does, leaving out bounds that are zero", () => {
    expect(describeVariable(recordOf("n", vars.integer({ minValue: 0, maxValue: 9, default: 3, label: "N" })))).to.deep.equal(
      { name: "n", type: "IntegerVar", label: "N", required: true, max_value: 9, default: 3 });
    expect(describeVariable(recordOf("on", vars.boolean({ description: "Turn it on" })))).to.deep.equal({ name: "on", type: "BooleanVar", help_text: "Turn it on", required: false });
    expect(describeVariable(recordOf("site", vars.object("dcim.Site", { queryParams: { status: "active" } })))).to.deep.equal({ name: "site", type: "ObjectVar", required: true, model: "dcim.site" });
  });

  it("cleans values as Django's fields do: text stripped, whole numbers, booleans from text, canonical addresses", async () => {
    const cleaned = await validateData(records({
      s: vars.string(), i: vars.integer(), b: vars.boolean(), o: vars.object("dcim.site"), m: vars.multiObject("dcim.site"),
      a: vars.ipAddress(), w: vars.ipAddressWithMask(), n: vars.ipNetwork(), c: vars.multiChoice([["x", "X"], ["y", "Y"]]),
    }), { s: "  hi ", i: "42.0", b: "False", o: { slug: "ams" }, m: [SITE, { slug: "ams" }], a: "2001:0DB8:0::1", w: "10.0.0.1/24", n: "2001:db8::/48", c: ["y"] }, lookup);
    expect(cleaned).to.deep.equal({ s: "hi", i: 42, b: false, o: SITE, m: [SITE], a: "2001:db8::1", w: "10.0.0.1/24", n: "2001:db8::/48", c: ["y"] });
  });

  it("refuses in Nautobot's order: no object, an unknown key, a null required value, then every field's errors", async () => {
    expect(await refusal({ s: vars.string() }, ["s"])).to.deep.equal(["Job data needs to be a dict"]);
    expect(await refusal({ s: vars.string() }, { t: 1, u: 2 })).to.deep.equal({ t: ["Job data contained an unknown property"] });
    expect(await refusal({ s: vars.string() }, { s: null })).to.deep.equal(["s is a required field"]);
    expect(await refusal({
      s: vars.string({ maxLength: 3, regex: "^a" }), i: vars.integer({ minValue: 5 }), n: vars.ipNetwork({ maxPrefixLength: 24 }),
      o: vars.object("dcim.site"), m: vars.multiObject("dcim.site"), a: vars.ipAddress(),
    }, { s: "bcde", i: 2, n: "10.1.2.3/28", o: "nope", m: [SITE, "nope"] })).to.deep.equal({
      s: ["Invalid value. Must match regex: ^a", "Ensure this value has at most 3 characters (it has 4)."],
      i: ["Ensure this value is greater than or equal to 5."],
      n: ["10.1.2.3/28 is not a valid prefix. Did you mean 10.1.2.0/28?", "The prefix length must be less than or equal to 24."],
      o: ["Select a valid choice. That choice is not one of the available choices."],
      m: ["Select a valid choice. nope is not one of the available choices."],
      a: ["This field is required."],
    });
  });
});
