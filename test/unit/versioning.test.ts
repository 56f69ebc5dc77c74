// Version negotiation and renderer choice, DRF style (reference inventory.md §7.1 and the
// error table): header → 406, query → 404, mismatch → 400, unsatisfiable Accept → 406.
import { expect } from "chai";
import { negotiate } from "../../runtime/profiles/drf/versioning.js";
import { HttpError } from "../../runtime/errors.js";

const versions = { default: "1.2", supported: ["1.2", "1.3"] };

function failure(run: () => unknown): HttpError {
  try {
    run();
  } catch (err) {
    expect(err).to.be.instanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error("expected an HttpError");
}

describe("unit: DRF version negotiation", () => {
  it("defaults to the API's default version and JSON", () => {
    expect(negotiate(undefined, undefined, undefined, versions)).to.deep.equal({ version: "1.2", renderer: "json" });
    expect(negotiate("*/*", undefined, undefined, versions)).to.deep.equal({ version: "1.2", renderer: "json" });
  });

  it("takes the version parameter of the JSON media type, beside other parameters", () => {
    expect(negotiate("application/json; version=1.3", undefined, undefined, versions).version).to.equal("1.3");
    expect(negotiate("application/json; indent=4; version=1.3", undefined, undefined, versions).version).to.equal("1.3");
  });

  it("takes ?api_version when the header has none", () => {
    expect(negotiate("application/json", "1.3", undefined, versions).version).to.equal("1.3");
  });

  it("accepts the same version in header and query", () => {
    expect(negotiate("application/json; version=1.3", "1.3", undefined, versions).version).to.equal("1.3");
  });

  it("refuses an unsupported header version with 406 and the supported list", () => {
    const e = failure(() => negotiate("application/json; version=1.03", undefined, undefined, versions));
    expect([e.status, e.message]).to.deep.equal([406, 'Invalid version in "Accept" header. Supported versions are 1.2, 1.3']);
  });

  it("refuses an unsupported query version with 404", () => {
    const e = failure(() => negotiate(undefined, "2.0", undefined, versions));
    expect([e.status, e.message]).to.deep.equal([404, "Invalid version in query parameter. Supported versions are 1.2, 1.3"]);
  });

  it("refuses different header and query versions with 400, before checking either", () => {
    const e = failure(() => negotiate("application/json; version=1.3", "9.9", undefined, versions));
    expect([e.status, e.message]).to.deep.equal([400, 'Version mismatch between "Accept" header and query parameter.']);
  });

  it("refuses an Accept header it cannot satisfy with 406", () => {
    for (const accept of ["text/plain", "application/xml", "application/json;q=0"]) {
      const e = failure(() => negotiate(accept, undefined, undefined, versions));
      expect([e.status, e.message], accept).to.deep.equal([406, "Could not satisfy the request Accept header."]);
    }
  });

  it("renders HTML for a browser's Accept and for ?format=api; ?format=json wins over Accept", () => {
    expect(negotiate("text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", undefined, undefined, versions).renderer).to.equal("html");
    expect(negotiate(undefined, undefined, "api", versions).renderer).to.equal("html");
    expect(negotiate("text/html", undefined, "json", versions).renderer).to.equal("json");
    expect(negotiate("text/plain, application/json;q=0.5", undefined, undefined, versions).renderer).to.equal("json");
  });

  it("renders CSV only where the view offers it: ?format=csv or an Accept of text/csv, with the version still negotiated", () => {
    const csv = { types: ["text/csv"], formats: ["csv"] };
    expect(negotiate(undefined, undefined, "csv", versions, csv)).to.deep.equal({ version: "1.2", renderer: "csv" });
    expect(negotiate("text/csv", "1.3", undefined, versions, csv)).to.deep.equal({ version: "1.3", renderer: "csv" });
    expect(negotiate("text/csv;q=0.5, application/json", undefined, undefined, versions, csv).renderer).to.equal("json");
    expect(negotiate("text/csv", undefined, "json", versions, csv).renderer).to.equal("json");
    expect(failure(() => negotiate(undefined, undefined, "csv", versions)).status).to.equal(404);
    expect(failure(() => negotiate("text/csv", undefined, undefined, versions)).status).to.equal(406);
  });
});
