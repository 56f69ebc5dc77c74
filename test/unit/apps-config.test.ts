// PLUGINS, read once: an enabled app's jobs/ folder joins the jobs folders (a disabled app's
// jobs are not loaded), names are matched by folder name or label, and an unknown name is
// refused before anything is served.
import { expect } from "chai";
import { resolve } from "node:path";
import { configFromEnv } from "../../runtime/config.js";
import { checkPluginNames, enabledPlugins } from "../../runtime/plugins.js";
import { loadCatalog } from "../../runtime/features/jobs/catalog.js";
import { apis } from "../../generated/server.js";

const inventory = apis.find((a) => a.name === "inventory")!;

describe("apps: PLUGINS", () => {
  it("an enabled app's jobs/ joins the jobs folders; none without PLUGINS", () => {
    expect(configFromEnv({ PLUGINS: "bgp" }).jobsRoots).to.deep.equal([resolve("jobs"), resolve("apps/bgp/jobs")]);
    expect(configFromEnv({}).jobsRoots).to.deep.equal([resolve("jobs")]);
    expect(configFromEnv({ PLUGINS: " bgp, bgp " }).plugins).to.deep.equal(["bgp"]);
  });

  it("the app's job is found in its folder", async () => {
    const catalog = await loadCatalog(configFromEnv({ PLUGINS: "bgp", JOBS_ROOT: resolve("test/jobs") }).jobsRoots);
    expect([...catalog.jobs.keys()]).to.include("local/bgp_checks/IncompletePeerings");
    expect(catalog.problems).to.deep.equal([]);
  });

  it("names an app by its folder name or its label; refuses a name no app has", () => {
    expect(enabledPlugins(inventory, ["nautobot_bgp_models"]).map((p) => p.name)).to.deep.equal(["bgp"]);
    expect(enabledPlugins(inventory, []).map((p) => p.name)).to.deep.equal([]);
    expect(() => checkPluginNames(apis, ["bgp"])).to.not.throw();
    expect(() => checkPluginNames(apis, ["bgp_models"])).to.throw('PLUGINS names "bgp_models", which no app is (apps: bgp)');
  });
});
