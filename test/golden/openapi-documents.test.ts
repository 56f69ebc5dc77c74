// Every emitted OpenAPI document, checked by tools clients use: swagger-parser validates it
// as OpenAPI 3.1 (all $refs resolving), and openapi-typescript turns it into client types
// naming every path. A document only our own tests could read would not count. The documents
// the DRF profile derives for typed clients (`form=`) are checked as well.
import { expect } from "chai";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { apis } from "../../generated/server.js";
import { deriveDocument, FORMS } from "../../runtime/profiles/drf/documents.js";

/** A document with its own version number left out: two versions that differ only there are one document. */
const numberless = (doc: unknown) => JSON.stringify({ ...(doc as object), info: { ...(doc as { info: object }).info, version: "" } });

describe("emitted OpenAPI documents", () => {
  for (const api of apis) {
    const checked = new Map<string, string>();
    for (const [version, doc] of Object.entries(api.openapi)) {
      const same = checked.get(numberless(doc));
      if (same) {
        it(`${api.name} ${version} is ${same}'s document but for its number, which the tools checked`, () => {
          expect(numberless(doc)).to.equal(numberless(api.openapi[same]));
          expect((doc as { info: { version: string } }).info.version).to.equal(version);
        });
        continue;
      }
      checked.set(numberless(doc), version);
      describe(`${api.name} ${version}`, () => {
        it("is a valid OpenAPI 3.1 document whose references all resolve", async () => {
          const validated = (await SwaggerParser.validate(structuredClone(doc) as never)) as { openapi?: string; paths?: object };
          expect(validated.openapi).to.equal("3.1.0");
          expect(Object.keys(validated.paths ?? {})).to.not.be.empty;
        });

        it("generates TypeScript client types covering every path", async () => {
          const ts = astToString(await openapiTS(structuredClone(doc) as never));
          for (const path of Object.keys((doc as { paths: object }).paths)) expect(ts).to.include(`"${path}"`);
        });
      });
    }
  }

  for (const api of apis.filter((a) => a.profile === "drf")) {
    const version = api.versions.supported.at(-1)!;
    for (const form of FORMS) {
      it(`${api.name} ${version} with form=${form} is a valid OpenAPI 3.1 document whose references all resolve`, async () => {
        const doc = deriveDocument(api.openapi[version] as Record<string, unknown>, form);
        const validated = (await SwaggerParser.validate(structuredClone(doc) as never)) as { paths?: object };
        expect(Object.keys(validated.paths ?? {})).to.not.be.empty;
      });
    }
  }
});
