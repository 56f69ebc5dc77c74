// Names made in one place: verbose model names and field labels as DRF derives them.
import { expect } from "chai";
import { byCodePoint, constraintName, fieldLabel, migrationName, verboseName } from "../../generator/ir/names.js";

describe("unit: generator names", () => {
  it("splits model names into words, keeping acronyms", () => {
    expect(verboseName("IPAddress")).to.equal("IP Address");
    expect(verboseName("TenantGroup")).to.equal("Tenant Group");
    expect(verboseName("VRF")).to.equal("VRF");
    expect(verboseName("Prefix")).to.equal("Prefix");
    expect(verboseName("VLANGroup")).to.equal("VLAN Group");
  });

  it("labels fields like DRF's capfirst of the verbose name", () => {
    expect(fieldLabel("id")).to.equal("ID");
    expect(fieldLabel("is_pool")).to.equal("Is pool");
    expect(fieldLabel("url")).to.equal("Url");
    expect(fieldLabel("_depth")).to.equal("Depth");
    expect(fieldLabel("last_updated")).to.equal("Last updated");
  });

  it("sorts by code point, not by locale", () => {
    expect(["b", "B", "a", "_"].sort(byCodePoint)).to.deep.equal(["B", "_", "a", "b"]);
  });

  it("pads migration numbers and keeps constraint names within 63 bytes", () => {
    expect(migrationName(2, "add_x")).to.equal("0002_add_x.sql");
    expect(constraintName("t".repeat(70), "key")).to.have.length(63);
  });
});
