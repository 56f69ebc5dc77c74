import { app } from "../../../../../../generator/dsl/index.js";

export default app({ api: "shop", label: "shop_bgp", baseUrl: "bgp", verboseName: "BGP", version: "1.0", author: "Someone", description: "Peers." });
