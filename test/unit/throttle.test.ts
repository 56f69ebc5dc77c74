// What the throttle's settings and refusals say: the environment variables and their
// defaults, and DRF's exact throttle wording with its Retry-After header.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";
import { Throttled } from "../../runtime/auth/throttle.js";
import { throttled } from "../../runtime/profiles/drf/authentication.js";

describe("unit: throttling of failed passwords", () => {
  it("reads AUTH_FAILURE_LIMIT and AUTH_FAILURE_WINDOW, 10 in 300 s by default, 0 allowed", () => {
    expect(configFromEnv({})).to.include({ authFailureLimit: 10, authFailureWindow: 300 });
    expect(configFromEnv({ AUTH_FAILURE_LIMIT: "5", AUTH_FAILURE_WINDOW: " 60 " })).to.include({ authFailureLimit: 5, authFailureWindow: 60 });
    expect(configFromEnv({ AUTH_FAILURE_LIMIT: "0", AUTH_FAILURE_WINDOW: "" })).to.include({ authFailureLimit: 0, authFailureWindow: 300 });
  });

  it("refuses a mistyped setting instead of guessing", () => {
    for (const value of ["ten", "-1", "2.5", "1e3"]) {
      expect(() => configFromEnv({ AUTH_FAILURE_LIMIT: value }), value).to.throw(`AUTH_FAILURE_LIMIT must be a whole number of 0 or more, not "${value}"`);
    }
    expect(() => configFromEnv({ AUTH_FAILURE_WINDOW: "5m" })).to.throw(/AUTH_FAILURE_WINDOW/);
  });

  it("words a refusal as DRF's Throttled does, singular and plural, with Retry-After", () => {
    const one = throttled(new Throttled(1));
    expect(one.status).to.equal(429);
    expect(one.message).to.equal("Request was throttled. Expected available in 1 second.");
    expect(one.headers).to.deep.equal({ "Retry-After": "1" });
    const many = throttled(new Throttled(299));
    expect(many.message).to.equal("Request was throttled. Expected available in 299 seconds.");
    expect(many.headers).to.deep.equal({ "Retry-After": "299" });
  });
});
