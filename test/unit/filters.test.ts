// Filter sets compiled to SQL without a database: planning is synchronous, a Knex "pg"
// client with no connection builds the statement, and `toSQL()` shows it. The descriptors
// come from the golden `minimal` spec, so every filter kind is present. What only the data
// can tell (a slug or tag exists, a regex is valid) is planned as checks: SQL the read
// evaluates in its own statement; the e2e suites show their answers.
import { expect } from "chai";
import knexFactory, { type Knex } from "knex";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpecs } from "../../generator/load/index.js";
import { buildIr } from "../../generator/ir/index.js";
import { ModelIndex } from "../../runtime/models.js";
import { FilterCompiler } from "../../runtime/query/filters.js";
import { wordErrors } from "../../runtime/profiles/drf/wording.js";
import type { ModelDescriptor } from "../../runtime/descriptor.js";

const caseDir = join(fileURLToPath(new URL(".", import.meta.url)), "../golden/cases/minimal");
const db: Knex = knexFactory({ client: "pg" });
const opts = { strict: true, reserved: new Set(["limit", "offset", "brief"]) };

let compiler: FilterCompiler;
let item: ModelDescriptor;

before(async () => {
  const [loaded] = await loadSpecs(caseDir, "spec");
  const index = new ModelIndex({ ...buildIr(loaded), openapiFiles: {}, openapi: {}, migrations: [], appMigrations: [] });
  compiler = new FilterCompiler(index);
  item = index.model("core.item");
});

type Planned = { errors: Record<string, string[]> } | { sql: string; bindings: unknown[]; checks?: Array<{ param: string; sql: string; bindings: unknown[] }> };

function compile(query: string): Planned {
  const params = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(query)) params.set(k, [...(params.get(k) ?? []), v]);
  const { errors, plan } = compiler.compile(item, params, opts);
  // Worded as the DRF profile words them, the texts Nautobot answers with.
  if (Object.keys(errors).length) return { errors: wordErrors({ ...errors }) as Record<string, string[]> };
  const qb = db("core_item as t0").select("t0.id");
  plan.apply(qb);
  const { sql, bindings } = qb.toSQL().toNative();
  const where = { sql: sql.replace(/^select "t0"\."id" from "core_item" as "t0"\s*/, ""), bindings: [...bindings] };
  return plan.checks.length ? { ...where, checks: plan.checks.map(({ param, sql: c, bindings: b }) => ({ param, sql: c, bindings: b })) } : where;
}

describe("unit: filters → SQL", () => {
  it("compares one value as a plain equality, not through an array", () => {
    expect(compile("serial=A")).to.deep.equal({ sql: 'where ((t0."serial" = $1::text))', bindings: ["A"] });
    expect(compile("serial__n=A")).to.deep.equal({ sql: 'where NOT coalesce(((t0."serial" = $1::text)), false)', bindings: ["A"] });
  });

  it("ORs repeated values and ANDs different parameters", () => {
    expect(compile("serial=A&serial=B&quantity__gte=2")).to.deep.equal({
      sql: 'where ((t0."serial" = ANY($1::text[]))) and ((t0."quantity" >= $2::bigint))',
      bindings: [["A", "B"], "2"],
    });
  });

  it("escapes LIKE wildcards in contains lookups and negates with NULLs kept", () => {
    expect(compile("notes__ic=50%25_off")).to.deep.equal({
      sql: 'where ((t0."notes"::text ILIKE $1))', bindings: ["%50\\%\\_off%"],
    });
    expect(compile("notes__nisw=x")).to.deep.equal({
      sql: 'where NOT coalesce(((t0."notes"::text ILIKE $1)), false)', bindings: ["x%"],
    });
  });

  it("casts uuid, date and datetime values and compares numbers", () => {
    const id = "0b9b3c4e-8f7a-4f0e-9f57-2f1d1e0c9a11";
    expect(compile(`id=${id}`)).to.deep.equal({ sql: "where ((t0.id = $1::uuid))", bindings: [id] });
    expect(compile(`id=${id}&id=${id.toUpperCase()}`)).to.deep.equal({ sql: "where ((t0.id = ANY($1::uuid[])))", bindings: [[id, id.toUpperCase()]] });
    expect(compile("bought__lt=2024-01-31")).to.deep.equal({ sql: 'where ((t0."bought" < $1::date))', bindings: ["2024-01-31"] });
    expect(compile("seen__gte=2024-01-31T10:00:00Z")).to.deep.equal({
      sql: 'where ((t0."seen" >= $1::timestamptz))', bindings: ["2024-01-31T10:00:00Z"],
    });
  });

  it("matches booleans, choices (null included) and the free-text q", () => {
    expect(compile("active=false")).to.deep.equal({ sql: 'where t0."active" = $1', bindings: [false] });
    expect(compile("kind=small&kind=null")).to.deep.equal({
      sql: `where ((t0."kind"::text = $1) OR ((t0."kind" IS NULL OR t0."kind"::text = '')))`, bindings: ["small"],
    });
    expect(compile("q=ab")).to.deep.equal({
      sql: 'where ((t0."serial" ILIKE $1) OR (t0."notes" ILIKE $2))', bindings: ["%ab%", "%ab%"],
    });
  });

  it("turns network filters into inet operators on normalised networks", () => {
    expect(compile("within=10.1.2.3/16")).to.deep.equal({ sql: 'where ((t0."network" << $1::inet))', bindings: ["10.1.0.0/16"] });
    expect(compile("family=6")).to.deep.equal({ sql: 'where ((family(t0."network") = $1))', bindings: [6] });
    expect(compile("address=10.0.0.1")).to.deep.equal({ sql: 'where ((host(t0."address") = $1))', bindings: ["10.0.0.1"] });
  });

  it("refuses values the column type cannot hold before they reach the database", () => {
    expect(compile("bought=2024-02-30&seen__gte=2024-01-01T24:00:00Z&quantity=99999999999999999999&weight=1e999")).to.deep.equal({
      errors: {
        bought: ["Enter a valid date."],
        seen__gte: ["Enter a valid date/time."],
        quantity: ["Ensure this value is less than or equal to 9223372036854775807."],
        weight: ["Enter a number."],
      },
    });
  });

  it("plans a tree foreign key as a recursive sub-select, with a check that each value names an object", () => {
    const id = "0B9B3C4E-8F7A-4F0E-9F57-2F1D1E0C9A11";
    const got = compile(`group=${id}&group=null`) as { sql: string; bindings: unknown[]; checks: Array<{ sql: string; bindings: unknown[] }> };
    expect(got.sql).to.equal('where ((t0."group_id" = ANY(ARRAY(WITH RECURSIVE sub AS (SELECT x.id FROM "core_group" x WHERE x.id = ANY($1::uuid[]) ' +
      'UNION ALL SELECT c.id FROM "core_group" c JOIN sub ON c."parent_id" = sub.id) SELECT id FROM sub))) OR (t0."group_id" IS NULL))');
    expect(got.bindings).to.deep.equal([[id.toLowerCase()]]);
    expect(got.checks).to.deep.equal([{
      param: "group",
      // Each value as the key it names, bound as one: an index probe each, not a read of the table.
      sql: 'SELECT u.v FROM unnest(?::text[], ?::uuid[]) WITH ORDINALITY u(v, k, o) WHERE NOT EXISTS (SELECT 1 FROM "core_group" x WHERE x.id = u.k) ORDER BY u.o LIMIT 1',
      bindings: [[id], [id.toLowerCase()]],
    }]);
    // A model without a natural key takes ids only: anything else is refused while planning.
    expect(compile("group=engineering")).to.deep.equal({ errors: { group: ["Select a valid choice. engineering is not one of the available choices."] } });
  });

  it("plans tags as EXISTS per tag (ANDed; NOT EXISTS when negated), with a check for unknown slugs", () => {
    const got = compile("tag=a&tag=b") as { sql: string; bindings: unknown[]; checks: Array<{ sql: string; bindings: unknown[] }> };
    const exists = 'EXISTS (SELECT 1 FROM "core_tag_assignment" j JOIN "core_tag" g ON g.id = j."tag_id" WHERE j."object_type" = $1 AND j."object_id" = t0.id AND g.slug = $2)';
    expect(got.sql).to.equal(`where ${exists} and ${exists.replace("$1", "$3").replace("$2", "$4")}`);
    expect(got.bindings).to.deep.equal(["core.item", "a", "core.item", "b"]);
    expect(got.checks[0].bindings).to.deep.equal([["a", "b"]]);
    expect((compile("tag__n=a") as { sql: string }).sql).to.equal(`where NOT ${exists}`);
  });

  it("guards a regex with the validity function so an invalid one is a check, not a failed statement", () => {
    const got = compile("serial__re=(") as { sql: string; bindings: unknown[]; checks: Array<{ sql: string; bindings: unknown[] }> };
    expect(got.sql).to.equal('where ((CASE WHEN (SELECT armature_regex_is_valid($1)) THEN t0."serial"::text ~ $2 ELSE false END))');
    expect(got.bindings).to.deep.equal(["(", "("]);
    expect(got.checks[0].sql).to.include("NOT armature_regex_is_valid(u.v)");
  });

  it("ignores empty values and reserved parameters", () => {
    expect(compile("serial=&limit=5&brief=1")).to.deep.equal({ sql: "", bindings: [] });
  });

  it("collects every invalid value and unknown parameter, keyed by parameter", () => {
    expect(compile("id=nope&quantity=x&bought=2024-13-45&active=maybe&kind=huge&within=10.0.0.0/33&family=5&nosuch=1&extra=1")).to.deep.equal({
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
