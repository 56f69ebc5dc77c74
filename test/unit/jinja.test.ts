// The template engine: Jinja's common forms work, and hostile templates neither reach the
// process nor hang it; every failure comes back as a value.
import { expect } from "chai";
import { MAX_OUTPUT, render } from "../../runtime/templates/jinja.js";

const obj = { name: "ams01", site: { name: "Amsterdam", slug: "ams" }, tags: [{ name: "a" }, { name: "b" }], asn: 65000, status: null };

function value(template: string, context: Record<string, unknown> = { obj }): string {
  const out = render(template, context);
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

function failure(template: string, context: Record<string, unknown> = { obj }): string {
  const out = render(template, context);
  expect(out.ok, `${template} rendered ${JSON.stringify(out)}`).to.equal(false);
  return (out as { error: string }).error;
}

describe("unit: jinja templates", () => {
  it("renders attributes, filters, conditionals and loops", () => {
    expect(value("{{ obj.name | upper }} in {{ obj.site.name }}")).to.equal("AMS01 in Amsterdam");
    expect(value("{% if obj.asn > 64511 %}private{% else %}public{% endif %}")).to.equal("private");
    expect(value("{% for t in obj.tags %}{{ t.name }}{% if not loop.last %},{% endif %}{% endfor %}")).to.equal("a,b");
    expect(value("{{ obj.status | default('none', true) }}-{{ obj.tags | length }}")).to.equal("none-2");
    expect(value("{{ obj['site']['slug'] ~ '-' ~ obj.asn }}")).to.equal("ams-65000");
    expect(value("{% if obj.status is none %}yes{% endif %}")).to.equal("yes");
  });

  it("renders an undefined name as nothing, as Jinja's default Undefined", () => {
    expect(value("[{{ obj.missing }}][{{ nothing }}][{{ obj.missing.deeper }}]")).to.equal("[][][]");
  });

  it("reports a syntax error as a value", () => {
    failure("{{ obj.name ");
    failure("{% if %}");
    failure("{% for x in %}");
  });

  it("reaches no JS prototype, constructor or global", () => {
    failure("{{ ''.constructor.constructor('return process')() }}");
    failure("{{ obj.constructor.constructor('return process')() }}");
    for (const t of ["{{ obj.__proto__ }}", "{{ obj['__proto__'] }}", "{{ obj.constructor }}", "{{ obj.name.constructor }}", "{{ obj.toString }}",
      "{{ obj.hasOwnProperty }}", "{{ process }}", "{{ globalThis }}", "{{ require }}", "{{ this }}"]) {
      const out = render(t, { obj });
      expect(out.ok ? out.value : "", t).to.equal("");
    }
    expect(value("{{ obj.tags.constructor }}{{ obj.tags.__proto__ }}")).to.equal("");
    failure("{{ raise_exception('x') }}");
  });

  it("bounds loops, ranges and the text a template makes", () => {
    expect(failure("{{ range(100000000) | length }}")).to.match(/too long/);
    expect(failure("{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}")).to.match(/too long/);
    expect(failure("{% set ns = namespace(s='xxxxxxxx') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"))
      .to.match(/too much/);
    expect(failure("{{ 'x' | indent(1000000000) }}")).to.match(/too much/);
    expect(failure("{{ obj | tojson(indent=1000000000) }}")).to.match(/too much/);
    expect(failure(`{{ '${"x".repeat(400)}' | replace('x', '${"y".repeat(400)}') }}`)).to.match(/too much/);
    // A filter block passes the same check; a long chain of cheap filters costs each link once.
    expect(failure("{% set s = range(10000) | join('') %}{% filter replace('', s) %}{{ s }}{% endfilter %}")).to.match(/too much/);
    expect(value(`{{ 'abc'${"|replace('a','a')".repeat(20)} }}`)).to.equal("abc");
    expect(value("{{ range(3) | join(',') }}")).to.equal("0,1,2");
    expect(MAX_OUTPUT).to.be.above(1000);
  });

  it("fails as a value, not a crash, on a context that contains itself", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const out = render("{{ obj.self.self.name }}", { obj: cyclic });
    expect(out.ok).to.equal(false);
  });
});
