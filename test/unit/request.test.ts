// Accept header parsing: media types best first by q, then by order given.
import { expect } from "chai";
import { parseAccept } from "../../runtime/http/request.js";

describe("unit: parseAccept", () => {
  it("gives nothing for an absent or empty header", () => {
    expect(parseAccept(undefined)).to.deep.equal([]);
    expect(parseAccept("")).to.deep.equal([]);
  });

  it("parses parameters, lower-cases types and names, unquotes values", () => {
    expect(parseAccept('Application/JSON; Version="1.3"; indent=4')).to.deep.equal([
      { type: "application/json", params: { version: "1.3", indent: "4" }, q: 1 },
    ]);
  });

  it("orders by q, keeping header order among equals", () => {
    expect(parseAccept("text/html;q=0.5, application/json, */*;q=0.5").map((m) => m.type))
      .to.deep.equal(["application/json", "text/html", "*/*"]);
  });

  it("treats an unparseable q as 0", () => {
    expect(parseAccept("application/json;q=abc")[0].q).to.equal(0);
  });
});
