// The two slug rules side by side: the same titles give Django's and WordPress's answers.
import { expect } from "chai";
import { sanitizeTitle, slugify } from "../../runtime/text/slugs.js";

describe("unit: slugs", () => {
  it("Django's slugify keeps underscores, drops punctuation and may be empty", () => {
    expect(slugify("  Data Centre_1 (East) ")).to.equal("data-centre_1-east");
    expect(slugify("Café -- Bar")).to.equal("cafe-bar");
    expect(slugify("!!!")).to.equal("");
  });

  it("WordPress's sanitize_title drops entities and underscores, trims dashes, and falls back to untitled", () => {
    expect(sanitizeTitle("Rock &amp; Roll Night")).to.equal("rock-roll-night");
    expect(sanitizeTitle("Data_Centre -1-")).to.equal("datacentre-1");
    expect(sanitizeTitle("Café")).to.equal("cafe");
    expect(sanitizeTitle("!!!")).to.equal("untitled");
  });
});
