// Names made in one place: verbose model names and field labels as DRF derives them.
import { expect } from "chai";
import {
  byCodePoint, constraintName, constraintNames, fieldLabel, generatedPaths, m2mColumns, migrationName, operationId, verboseName,
} from "../../generator/ir/names.js";

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

describe("unit: names of constraints, operations and generated files", () => {
  it("makes every constraint name under PostgreSQL's 63-byte limit", () => {
    expect(constraintNames.index("ipam_prefix", "vrf_id")).to.equal("ipam_prefix_vrf_id_idx");
    expect(constraintNames.foreignKey("ipam_prefix", "vrf_id")).to.equal("ipam_prefix_vrf_id_fkey");
    expect(constraintNames.uniqueTogether("ipam_vlan", ["group_id", "vid"])).to.equal("ipam_vlan_group_id_vid_uniq");
    expect(constraintNames.foreignKey("x".repeat(60), "column_id")).to.have.length(63);
  });

  it("names m2m columns, operation ids and generated files", () => {
    expect(m2mColumns("RouteTarget")).to.deep.equal({ source: "source_id", target: "routetarget_id" });
    expect(operationId("ipam", "prefixes", "bulk_partial_update")).to.equal("ipam_prefixes_bulk_partial_update");
    expect(generatedPaths.model("inventory", "ipam", "prefixes")).to.equal("inventory/models/ipam/prefixes.ts");
    expect(generatedPaths.modelExport("ipam", "Prefix")).to.equal("ipam_Prefix");
    expect(generatedPaths.openapi("inventory", "1.3")).to.equal("inventory/openapi/1.3.json");
  });
});
