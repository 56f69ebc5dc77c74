// The tests' Prometheus text reader (test/support/prometheus.ts) takes what prom-client writes
// and refuses what the format does not allow: the metrics tests can only pass on a valid scrape.
import { expect } from "chai";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { parsePrometheus, total } from "../support/prometheus.js";

describe("the tests' Prometheus text reader", () => {
  it("reads prom-client's exposition: types, escaped labels, histograms", async () => {
    const registry = new Registry();
    const c = new Counter({ name: "t_total", help: "a \\ counter\nwith two lines", labelNames: ["route"], registers: [registry] });
    c.inc({ route: 'a "quoted"\\path\nnext' }, 2);
    c.inc({ route: "/b/{id}/" });
    const h = new Histogram({ name: "t_seconds", help: "h", labelNames: ["m"], buckets: [0.1, 1], registers: [registry] });
    h.observe({ m: "GET" }, 0.5);
    h.observe({ m: "GET" }, 5);
    const families = parsePrometheus(await registry.metrics());
    expect(families.get("t_total")).to.include({ type: "counter", help: "a \\ counter\nwith two lines" });
    expect(total(families, "t_total", { route: 'a "quoted"\\path\nnext' })).to.equal(2);
    expect(total(families, "t_total")).to.equal(3);
    expect(total(families, "t_seconds_bucket", { m: "GET", le: "1" })).to.equal(1);
    expect(total(families, "t_seconds_count", { m: "GET" })).to.equal(2);
    expect(total(families, "t_seconds_sum")).to.equal(5.5);
  });

  it("reads the special values as Prometheus does (Go's ParseFloat, any case), prom-client's `Nan` included", async () => {
    const registry = new Registry();
    const g = new Gauge({ name: "t_mean", help: "a mean of nothing", registers: [registry] });
    g.set(NaN);
    const text = await registry.metrics();
    expect(text).to.include("t_mean Nan");
    expect(Number.isNaN(total(parsePrometheus(text), "t_mean"))).to.equal(true);
    const families = parsePrometheus("# TYPE a gauge\na{x=\"1\"} NaN\na{x=\"2\"} +Inf\na{x=\"3\"} -inf\na{x=\"4\"} Infinity\n");
    expect(families.get("a")!.samples.map((s) => s.value)).to.deep.equal([NaN, Infinity, -Infinity, Infinity]);
  });

  const refused: Array<[string, string]> = [
    ["a word for a value", "# TYPE a gauge\na nano\n"],
    ["no final newline", "# TYPE a counter\na 1"],
    ["a sample of no typed family", "# TYPE a counter\nb 1\n"],
    ["a bad value", "# TYPE a gauge\na one\n"],
    ["two spaces", "# TYPE a gauge\na  1\n"],
    ["an unquoted label", "# TYPE a gauge\na{x=1} 1\n"],
    ["an unterminated label", '# TYPE a gauge\na{x="1} 1\n'],
    ["a bad escape", '# TYPE a gauge\na{x="\\t"} 1\n'],
    ["a series twice", '# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n'],
    ["a family split", "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# TYPE a gauge\n"],
    ["an unknown type", "# TYPE a meter\n"],
    ["buckets that fall", '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\nh_sum 1\n'],
    ["+Inf not the count", '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 1\nh_sum 1\n'],
  ];
  for (const [what, text] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => parsePrometheus(text)).to.throw();
    });
  }
});
