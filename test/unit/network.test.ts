// Network and address parsing for filters: normalised text for PostgreSQL, or null (→ 400).
import { expect } from "chai";
import { maskLength, parseInterface, parseNetwork } from "../../runtime/query/network.js";

describe("unit: network parsing", () => {
  it("drops host bits of a CIDR", () => {
    expect(parseNetwork("10.1.2.3/24")).to.equal("10.1.2.0/24");
    expect(parseNetwork("10.1.2.3/9")).to.equal("10.0.0.0/9");
    expect(parseNetwork("0.0.0.0/0")).to.equal("0.0.0.0/0");
    expect(parseNetwork(" 192.168.1.1/32 ")).to.equal("192.168.1.1/32");
    expect(parseNetwork("255.255.255.255/1")).to.equal("128.0.0.0/1");
    expect(parseNetwork("10.1.2.3/08")).to.equal("10.0.0.0/8");
  });

  it("handles IPv6, compressing the result", () => {
    expect(parseNetwork("2001:db8:0:0:0:0:0:1/32")).to.equal("2001:db8::/32");
    expect(parseNetwork("2001:DB8::1/127")).to.equal("2001:db8::/127");
    expect(parseNetwork("::1")).to.equal("::1/128");
  });

  it("refuses IPv6 zone ids, which PostgreSQL's inet and cidr cannot hold", () => {
    for (const v of ["fe80::1%eth0/64", "fe80::1%eth0", "fe80::1%25eth0", "fe80::%1/10"]) {
      expect(parseNetwork(v), v).to.equal(null);
      expect(parseInterface(v), v).to.equal(null);
    }
    expect(parseInterface("fe80::1/64")).to.equal("fe80::1/64");
  });

  it("gives a bare address its full mask", () => {
    expect(parseNetwork("10.0.0.1")).to.equal("10.0.0.1/32");
  });

  // "1.2.3" is ambiguous (inet_aton reads 1.2.0.3, PostgreSQL's cidr reads 1.2.3.0/24), so
  // only full dotted quads are networks, as netaddr's inet_pton mode has it.
  it("refuses what is not a network", () => {
    for (const bad of ["", "abc", "10.0.0.256/24", "10.0.0.0/33", "10.0.0.0/", "/24", "2001:db8::/129", "10.0.0.0/-1", "1.2.3", "010.0.0.1/8", "10.0.0.01"]) {
      expect(parseNetwork(bad), bad).to.equal(null);
    }
  });

  it("keeps an interface address as given, host bits included", () => {
    expect(parseInterface("10.0.0.5/24")).to.equal("10.0.0.5/24");
    expect(parseInterface("2001:db8::5")).to.equal("2001:db8::5");
    expect(parseInterface("10.0.0.300")).to.equal(null);
    expect(parseInterface("10.0.0.5/40")).to.equal(null);
  });

  it("reads the mask length of a CIDR", () => {
    expect(maskLength("10.0.0.0/8")).to.equal(8);
    expect(maskLength("10.0.0.1")).to.equal(null);
  });
});
