// The write validator's schemas against the OpenAPI document they come from: each compiled from
// the components its schema reaches and nothing else, and the document (megabytes of objects)
// not kept once they are compiled (issue 32: documents stay text until asked for).
import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { apis } from "../../generated/server.js";
import { openApiDocument } from "../../runtime/artifacts.js";
import { WriteValidators, schemaWithReferences } from "../../runtime/write/validate.js";

type Json = Record<string, any>;

/** Every `$ref` under `value`. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === "object") {
    if (typeof (value as Json).$ref === "string") out.push((value as Json).$ref);
    Object.values(value).forEach((v) => refs(v, out));
  }
  return out;
}

/** The live JS heap after full collections, in bytes. */
function liveHeap(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("write schemas from the OpenAPI documents", () => {
  it("each model's write schema brings every component it refers to, and no path", () => {
    let seen = 0;
    for (const api of apis) {
      const doc = openApiDocument(api, api.versions.default) as Json;
      const whole = JSON.stringify(doc.components).length;
      for (const m of api.models.filter((x) => doc.components.schemas[x.components.write])) {
        const part = schemaWithReferences(doc, m.components.write);
        expect(part.components.schemas[m.components.write], m.key).to.deep.equal(doc.components.schemas[m.components.write]);
        for (const ref of refs(part)) {
          const [, , kind, name] = ref.split("/");
          expect(part.components[kind]?.[name], `${m.key}: ${ref}`).to.not.equal(undefined);
        }
        expect(part).to.not.have.property("paths");
        expect(JSON.stringify(part).length, m.key).to.be.below(whole / 4);
        seen++;
      }
    }
    expect(seen).to.be.above(0);
  });

  it("a validator keeps its compiled schemas, not the document they were compiled from", () => {
    const api = apis.reduce((a, b) => (b.models.length > a.models.length ? b : a));
    const version = api.versions.default;
    const { models, document } = (() => {
      const doc = openApiDocument(api, version) as Json;
      return { models: api.models.filter((m) => doc.components.schemas[m.components.write]).slice(0, 3), document: Buffer.byteLength(JSON.stringify(doc)) };
    })();
    const before = liveHeap();
    const validators = new WriteValidators(api);
    for (const m of models) for (const mode of ["write", "patch"] as const) validators.check(m, version, mode, {});
    const held = liveHeap() - before;
    // A parsed document takes several times its JSON; ajv and the compiled schemas of a few
    // models, a small part of it.
    expect(held, `${(held / 2 ** 20).toFixed(1)} MB held for a ${(document / 2 ** 20).toFixed(1)} MB document`).to.be.below(document);
    // Used after the measure, so that what it holds is live when measured.
    expect(validators.check(models[0], version, "write", {})).to.not.equal(undefined);
  });
});
