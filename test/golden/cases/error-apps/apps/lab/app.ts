import { app } from "../../../../../../generator/dsl/index.js";

export default app({ api: "shop", label: "store", baseUrl: "laboratory", verboseName: "", version: "1.0", author: "Someone", description: "Tests." });
