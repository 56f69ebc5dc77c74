// How large the served OpenAPI documents are: compact JSON, as runtime/profiles/drf/views/
// documents.ts sends them. A bound per API keeps what shrank them (shared parameters, shared
// responses, generator/emit/openapi/share-schemas.ts) from quietly coming undone.
import { expect } from "chai";
import { apis } from "../../generated/server.js";
import { servedDocument } from "../../runtime/profiles/drf/documents.js";

/**
 * The inventory documents at 055a8b5, the baseline of issue 31: 2,730,000 bytes of compact
 * JSON each (1.3: 2,729,952). Issue 31 asks for at most 40 % of that (1,092,000 bytes), which
 * the served document cannot reach and keep its clients: the Ansible collection reads `name`
 * of every list's parameters (plugins/inventory/inventory.py:1068, module_utils/utils.py:566
 * at v4.5.1), so each of the 6,849 filter parameters is written out in full (650 kB), and
 * OpenAPI 3.1 allows no `name` beside a `$ref`. What is shared is shared: responses, request
 * bodies and schemas are components; the parameters' components are left out once nothing
 * refers to them, and so are the schemas no path reaches (a disabled app's). The bound is what
 * was reached, and then CSV documented on every list (some 16 kB); with apps enabled a document
 * grows by their paths and schemas.
 */
const INVENTORY_BASELINE = 2_730_000;
const INVENTORY_BOUND = 0.73;
/** The calendar's document: 133,647 bytes before its request bodies became components. */
const CALENDAR_BOUND = 85_000;

describe("served OpenAPI documents' size", () => {
  for (const api of apis) {
    for (const version of Object.keys(api.openapi)) {
      const bound = api.name === "inventory" ? Math.floor(INVENTORY_BASELINE * INVENTORY_BOUND) : api.name === "calendar" ? CALENDAR_BOUND : undefined;
      if (bound === undefined) continue;
      it(`${api.name} ${version}: at most ${bound} bytes of compact JSON as served, no app enabled`, () => {
        const served = api.profile === "drf" ? servedDocument(api, version, undefined, []) : api.openapi[version];
        expect(Buffer.byteLength(JSON.stringify(served))).to.be.at.most(bound);
      });
    }
  }
});
