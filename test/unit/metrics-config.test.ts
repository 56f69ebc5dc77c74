// The metrics settings as an operator writes them: off by default, authenticated by default,
// Nautobot's name and its guide's spelling both read, and a mistyped value refused.
import { expect } from "chai";
import { configFromEnv } from "../../runtime/config.js";

describe("metrics settings", () => {
  it("are off, and authenticated once on, by default", () => {
    expect(configFromEnv({}).metrics).to.deep.equal({ enabled: false, authenticated: true });
    expect(configFromEnv({ METRICS_ENABLED: "1" }).metrics).to.deep.equal({ enabled: true, authenticated: true });
  });

  it("read METRICS_AUTHENTICATED, and METRICS_AUTHENTICATION when it is unset", () => {
    expect(configFromEnv({ METRICS_AUTHENTICATED: "0" }).metrics.authenticated).to.equal(false);
    expect(configFromEnv({ METRICS_AUTHENTICATION: "0" }).metrics.authenticated).to.equal(false);
    expect(configFromEnv({ METRICS_AUTHENTICATED: "1", METRICS_AUTHENTICATION: "0" }).metrics.authenticated).to.equal(true);
  });

  it("refuse a value other than 0 or 1, naming the setting", () => {
    expect(() => configFromEnv({ METRICS_ENABLED: "True" })).to.throw(/METRICS_ENABLED must be one of 0, 1/);
    expect(() => configFromEnv({ METRICS_AUTHENTICATED: "yes" })).to.throw(/METRICS_AUTHENTICATED/);
  });
});
