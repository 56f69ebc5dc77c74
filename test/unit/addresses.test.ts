// Free-space arithmetic: addresses to numbers and back (RFC 5952's IPv6 text), and a range's
// fewest covering CIDR blocks, checked against what netaddr's IPSet.iter_cidrs gives.
import { expect } from "chai";
import { blocksOf, formatAddress, parseAddress, withLength } from "../../runtime/text/addresses.js";

describe("unit: address arithmetic", () => {
  it("writes a host with its prefix length, as netaddr does", () => {
    expect(["10.0.0.1", "10.0.0.1/24", "::ffff:192.0.2.1", "2001:db8::1/64"].map(withLength))
      .to.deep.equal(["10.0.0.1/32", "10.0.0.1/24", "::ffff:192.0.2.1/128", "2001:db8::1/64"]);
  });

  it("reads and writes addresses in their canonical text", () => {
    for (const text of ["0.0.0.0", "10.1.2.3", "255.255.255.255", "::", "::1", "2001:db8::", "2001:db8:0:1:1:1:1:1", "2001:0:0:1::1", "fe80::1:0:0:1"]) {
      const { family, value } = parseAddress(text);
      expect(formatAddress(family, value), text).to.equal(text);
    }
    expect(parseAddress("10.0.0.9/24").value).to.equal(0x0a000009n);
    expect(formatAddress(6, parseAddress("2001:DB8:0000:0000:1:0:0:1").value)).to.equal("2001:db8::1:0:0:1");
    expect(formatAddress(6, parseAddress("::ffff:192.0.2.1").value)).to.equal("::ffff:c000:201");
    expect(parseAddress("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").value).to.equal((1n << 128n) - 1n);
  });

  it("covers a range with the fewest aligned blocks, in order", () => {
    const v4 = (lo: string, hi: string) => blocksOf(4, parseAddress(lo).value, parseAddress(hi).value).map((b) => `${formatAddress(4, b.start)}/${b.length}`);
    expect(v4("10.0.1.0", "10.0.255.255")).to.deep.equal(["10.0.1.0/24", "10.0.2.0/23", "10.0.4.0/22", "10.0.8.0/21", "10.0.16.0/20", "10.0.32.0/19", "10.0.64.0/18", "10.0.128.0/17"]);
    expect(v4("10.0.0.1", "10.0.0.6")).to.deep.equal(["10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"]);
    expect(v4("0.0.0.0", "255.255.255.255")).to.deep.equal(["0.0.0.0/0"]);
    expect(blocksOf(6, 0n, (1n << 64n) - 1n)).to.deep.equal([{ start: 0n, length: 64 }]);
  });
});
