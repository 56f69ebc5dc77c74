// How large the served OpenAPI documents are: compact JSON, as runtime/profiles/drf/views/
// documents.ts sends them. A bound per API keeps what shrank them (shared parameters, shared
// responses, generator/emit/openapi/share-schemas.ts) from quietly coming undone.
import { expect } from "chai";
import { apis } from "../../generated/server.js";

/**
 * The inventory documents at 055a8b5, the baseline of issue 31: 2,730,000 bytes of compact
 * JSON each (1.3: 2,729,952). Issue 31 asks for at most 40 % of that (1,092,000 bytes). Not
 * met yet: the documents are at about 64 %, and what remains is mostly one `$ref` per refusal
 * per operation (7,536 of them, 386 kB) and one per filter parameter per list (6,849, 318 kB),
 * which OpenAPI offers no way to share. The bound below is what was reached; lower it as the
 * documents shrink, down to the 40 %. It has since grown by what the documents came to
 * say (CSV bodies and answers on every list, GraphQL mutations: 3.5 kB) and by the schemas of
 * the BGP app's models (41 kB), which stay among the components; its paths, served only when it
 * is enabled, are not counted.
 */
const INVENTORY_BASELINE = 2_730_000;
const INVENTORY_BOUND = 0.67;
/** The calendar's document: 133,647 bytes before its request bodies became components. */
const CALENDAR_BOUND = 85_000;

describe("served OpenAPI documents' size", () => {
  for (const api of apis) {
    for (const [version, doc] of Object.entries(api.openapi)) {
      const bound = api.name === "inventory" ? Math.floor(INVENTORY_BASELINE * INVENTORY_BOUND) : api.name === "calendar" ? CALENDAR_BOUND : undefined;
      if (bound === undefined) continue;
      it(`${api.name} ${version}: at most ${bound} bytes of compact JSON, without its apps`, () => {
        const apps = (api.plugins ?? []).map((p) => `${api.basePath}${p.base}/`);
        const paths = Object.fromEntries(Object.entries((doc as { paths: Record<string, unknown> }).paths).filter(([path]) => !apps.some((base) => path.startsWith(base))));
        expect(Buffer.byteLength(JSON.stringify({ ...(doc as object), paths }))).to.be.at.most(bound);
      });
    }
  }
});
