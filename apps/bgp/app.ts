// Nautobot's BGP models app (nautobot-app-bgp-models 0.7.1, the release for Nautobot 1.5) as
// an app of the inventory API: its PluginConfig, and its models in spec/.
import { app } from "../../generator/dsl/index.js";

export default app({
  api: "inventory",
  label: "nautobot_bgp_models",
  baseUrl: "bgp",
  verboseName: "BGP Models",
  version: "0.7.1",
  author: "Network to Code, LLC",
  authorEmail: "opensource@networktocode.com",
  description: "Nautobot BGP Models Plugin.",
  // Made the app's tables while its migrations were numbered among the inventory's.
  replaces: ["0040_create_nautobot_bgp_models_addressfamily_and_more.sql"],
});
