// Password hashing: scrypt with a random salt, verified in constant time; malformed hashes never match.
import { expect } from "chai";
import { hashPassword, randomHex, verifyPassword } from "../../runtime/auth/passwords.js";

describe("unit: passwords", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("s3cret");
    expect(hash).to.match(/^scrypt\$16384\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(await verifyPassword("s3cret", hash)).to.equal(true);
    expect(await verifyPassword("s3cret ", hash)).to.equal(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).to.not.equal(await hashPassword("same"));
  });

  it("refuses absent and malformed stored hashes", async () => {
    for (const stored of [null, undefined, "", "plain", "md5$1$2$3", "scrypt$16384$salt"]) {
      expect(await verifyPassword("x", stored), String(stored)).to.equal(false);
    }
  });

  it("makes random hex keys of the asked length", () => {
    expect(randomHex(40)).to.match(/^[0-9a-f]{40}$/);
    expect(randomHex(7)).to.match(/^[0-9a-f]{7}$/);
    expect(randomHex(40)).to.not.equal(randomHex(40));
  });
});
