// Filter sets compiled to SQL without a database: a Knex "pg" client with no connection
// builds the statement, and `toSQL()` shows it. The descriptors come from the golden
// `minimal` spec, so every filter kind is present. Lookups that must ask the database
// (regex validity, foreign keys by slug, tags) are covered by the e2e and conformance suites.
import { expect } from "chai";
import knexFactory, { type Knex } from "knex";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpecs } from "../../generator/load/index.js";
import { buildIr } from "../../generator/ir/index.js";
import { ModelIndex } from "../../runtime/models.js";
import { FilterCompiler, type FilterErrors } from "../../runtime/query/filters.js";
import type { ModelDescriptor } from "../../runtime/descriptor.js";

const caseDir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/minimal");
const db: Knex = knexFactory({ client: "pg" });
const opts = { strict: true, reserved: new Set(["limit", "offset", "brief"]) };

let compiler: FilterCompiler;
let item: ModelDescriptor;

before(async () => {
  const [loaded] = await loadSpecs(caseDir, "spec");
  const index = new ModelIndex({ ...buildIr(loaded), openapi: {}, migrations: [] });
  compiler = new FilterCompiler(index);
  item = index.model("core.item");
});

async function compile(query: string): Promise<{ errors: FilterErrors } | { sql: string; bindings: unknown[] }> {
  const params = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(query)) params.set(k, [...(params.get(k) ?? []), v]);
  const out = await compiler.compile(db, item, params, opts);
  if ("errors" in out) return out;
  const qb = db("core_item as t0").select("t0.id");
  out.apply(qb);
  const { sql, bindings } = qb.toSQL().toNative();
  return { sql: sql.replace(/^select "t0"\."id" from "core_item" as "t0"\s*/, ""), bindings: [...bindings] };
}

describe("unit: filters → SQL", () => {
  it("ORs repeated values and ANDs different parameters", async () => {
    expect(await compile("serial=A&serial=B&quantity__gte=2")).to.deep.equal({
      sql: 'where ((t0."serial" = ANY($1::text[]))) and ((t0."quantity" >= $2::bigint))',
      bindings: [["A", "B"], "2"],
    });
  });

  it("escapes LIKE wildcards in contains lookups and negates with NULLs kept", async () => {
    expect(await compile("notes__ic=50%25_off")).to.deep.equal({
      sql: 'where ((t0."notes"::text ILIKE $1))', bindings: ["%50\\%\\_off%"],
    });
    expect(await compile("notes__nisw=x")).to.deep.equal({
      sql: 'where NOT coalesce(((t0."notes"::text ILIKE $1)), false)', bindings: ["x%"],
    });
  });

  it("casts uuid, date and datetime values and compares numbers", async () => {
    const id = "0b9b3c4e-8f7a-4f0e-9f57-2f1d1e0c9a11";
    expect(await compile(`id=${id}`)).to.deep.equal({ sql: "where ((t0.id = ANY($1::uuid[])))", bindings: [[id]] });
    expect(await compile("bought__lt=2024-01-31")).to.deep.equal({ sql: 'where ((t0."bought" < $1::date))', bindings: ["2024-01-31"] });
    expect(await compile("seen__gte=2024-01-31T10:00:00Z")).to.deep.equal({
      sql: 'where ((t0."seen" >= $1::timestamptz))', bindings: ["2024-01-31T10:00:00Z"],
    });
  });

  it("matches booleans, choices (null included) and the free-text q", async () => {
    expect(await compile("active=false")).to.deep.equal({ sql: 'where t0."active" = $1', bindings: [false] });
    expect(await compile("kind=small&kind=null")).to.deep.equal({
      sql: `where ((t0."kind"::text = $1) OR ((t0."kind" IS NULL OR t0."kind"::text = '')))`, bindings: ["small"],
    });
    expect(await compile("q=ab")).to.deep.equal({
      sql: 'where ((t0."serial" ILIKE $1) OR (t0."notes" ILIKE $2))', bindings: ["%ab%", "%ab%"],
    });
  });

  it("turns network filters into inet operators on normalised networks", async () => {
    expect(await compile("within=10.1.2.3/16")).to.deep.equal({ sql: 'where ((t0."network" << $1::inet))', bindings: ["10.1.0.0/16"] });
    expect(await compile("family=6")).to.deep.equal({ sql: 'where ((family(t0."network") = $1))', bindings: [6] });
    expect(await compile("address=10.0.0.1")).to.deep.equal({ sql: 'where ((host(t0."address") = $1))', bindings: ["10.0.0.1"] });
  });

  it("refuses values the column type cannot hold before they reach the database", async () => {
    expect(await compile("bought=2024-02-30&seen__gte=2024-01-01T24:00:00Z&quantity=99999999999999999999&weight=1e999")).to.deep.equal({
      errors: {
        bought: ["Enter a valid date."],
        seen__gte: ["Enter a valid date/time."],
        quantity: ["Ensure this value is less than or equal to 9223372036854775807."],
        weight: ["Enter a number."],
      },
    });
  });

  it("ignores empty values and reserved parameters", async () => {
    expect(await compile("serial=&limit=5&brief=1")).to.deep.equal({ sql: "", bindings: [] });
  });

  it("collects every invalid value and unknown parameter, keyed by parameter", async () => {
    expect(await compile("id=nope&quantity=x&bought=2024-13-45&active=maybe&kind=huge&within=10.0.0.0/33&family=5&nosuch=1&extra=1")).to.deep.equal({
      errors: {
        id: ["Enter a valid UUID."],
        quantity: ["Enter a whole number."],
        bought: ["Enter a valid date."],
        active: ["Select a valid choice. maybe is not one of the available choices."],
        kind: ["Select a valid choice. huge is not one of the available choices."],
        within: ["Enter a valid IPv4 or IPv6 network in CIDR notation."],
        family: ["Select a valid choice. 5 is not one of the available choices."],
        nosuch: ["Unknown filter field"],
        // `extra` is excluded from filtering by the spec, so it is unknown too.
        extra: ["Unknown filter field"],
      },
    });
  });
});
