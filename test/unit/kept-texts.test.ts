// The bound on texts kept to skip work done before: by the characters they hold, the least
// recently used forgotten first.
import { expect } from "chai";
import { KeptTexts } from "../../runtime/kept-texts.js";

describe("KeptTexts", () => {
  it("forgets the least recently used entries once keys and values weigh more than the budget", () => {
    const kept = new KeptTexts<string>(100, (v) => v.length);
    kept.set("a", "x".repeat(39));
    kept.set("b", "x".repeat(39));
    expect(kept.held).to.equal(80);
    expect(kept.get("a")).to.have.length(39);
    kept.set("c", "x".repeat(39));
    expect(kept.get("b"), "least recently used").to.equal(undefined);
    expect(kept.get("a")).to.have.length(39);
    expect(kept.get("c")).to.have.length(39);
    expect(kept.held).to.equal(80);
    expect(kept.size).to.equal(2);
  });

  it("weighs a key replaced by its new value only", () => {
    const kept = new KeptTexts<string>(100, (v) => v.length);
    kept.set("a", "x".repeat(50));
    kept.set("a", "x".repeat(10));
    expect(kept.held).to.equal(11);
    kept.delete("a");
    expect(kept.held).to.equal(0);
    expect(kept.size).to.equal(0);
  });

  it("keeps the newest entry alone when it outweighs the budget by itself", () => {
    const kept = new KeptTexts<true>(10);
    kept.set("short", true);
    kept.set("a key longer than the budget", true);
    expect(kept.get("short")).to.equal(undefined);
    expect(kept.get("a key longer than the budget")).to.equal(true);
    expect(kept.size).to.equal(1);
  });
});
