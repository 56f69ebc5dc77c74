// DRF limit/offset pagination as pure functions: the effective limit and offset, and the
// next/previous links (reference inventory.md, "Pagination").
import { expect } from "chai";
import { pageLinks, pageParams } from "../../runtime/profiles/drf/pagination.js";

const capped = { defaultLimit: 50, maxLimit: 1000 };
const uncapped = { defaultLimit: 50, maxLimit: null };

describe("unit: DRF pagination", () => {
  describe("pageParams", () => {
    it("uses PAGINATE_COUNT when limit is absent, not an integer or negative", () => {
      for (const raw of [undefined, "", "abc", "1.5", "-1", "-50"]) {
        expect(pageParams(raw, undefined, capped), String(raw)).to.deep.equal({ limit: 50, offset: 0 });
      }
    });

    it("does not clamp the fallback to MAX_PAGE_SIZE", () => {
      expect(pageParams("-1", undefined, { defaultLimit: 50, maxLimit: 10 }).limit).to.equal(50);
    });

    it("clamps a limit above MAX_PAGE_SIZE silently", () => {
      expect(pageParams("5000", "0", capped)).to.deep.equal({ limit: 1000, offset: 0 });
      expect(pageParams("7", "3", capped)).to.deep.equal({ limit: 7, offset: 3 });
    });

    it("gives MAX_PAGE_SIZE for limit=0 when a maximum is set", () => {
      expect(pageParams("0", undefined, capped).limit).to.equal(1000);
    });

    it("turns pagination off for limit=0 only when there is no maximum", () => {
      expect(pageParams("0", "10", uncapped)).to.deep.equal({ limit: null, offset: 10 });
      expect(pageParams("0", undefined, { defaultLimit: 50, maxLimit: 0 }).limit).to.equal(null);
      expect(pageParams("5000", undefined, uncapped).limit).to.equal(5000);
    });

    it("coerces a negative or invalid offset to 0", () => {
      for (const raw of ["-5", "x", "", "2.5"]) expect(pageParams("10", raw, capped).offset, raw).to.equal(0);
    });
  });

  describe("pageLinks", () => {
    const url = new URL("http://host:8080/api/dcim/sites/?status=active&limit=50&offset=50&a=2&a=1");

    it("rebuilds links with sorted keys, repeated values kept, limit set to the effective limit", () => {
      const links = pageLinks(url, 50, 50, 500);
      expect(links.next).to.equal("http://host:8080/api/dcim/sites/?a=2&a=1&limit=50&offset=100&status=active");
      expect(links.previous).to.equal("http://host:8080/api/dcim/sites/?a=2&a=1&limit=50&status=active");
    });

    it("has no next on the last page and no previous on the first", () => {
      expect(pageLinks(new URL("http://h/x/"), 10, 0, 10)).to.deep.equal({ next: null, previous: null });
      expect(pageLinks(new URL("http://h/x/"), 10, 0, 11).next).to.equal("http://h/x/?limit=10&offset=10");
    });

    it("drops offset from previous when it would be 0 or less", () => {
      expect(pageLinks(new URL("http://h/x/?offset=5"), 10, 5, 100).previous).to.equal("http://h/x/?limit=10");
      expect(pageLinks(new URL("http://h/x/?offset=25"), 10, 25, 100).previous).to.equal("http://h/x/?limit=10&offset=15");
    });

    it("past the end: no next, previous steps back one page", () => {
      expect(pageLinks(new URL("http://h/x/?offset=200&limit=10"), 10, 200, 30)).to.deep.equal({
        next: null, previous: "http://h/x/?limit=10&offset=190",
      });
    });

    it("gives no links when pagination is off", () => {
      expect(pageLinks(new URL("http://h/x/?limit=0&offset=3"), null, 3, 100)).to.deep.equal({ next: null, previous: null });
    });
  });
});
