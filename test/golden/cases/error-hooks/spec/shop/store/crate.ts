import { field, model } from "../../../../../../../generator/dsl/index.js";

// Actions served where they cannot be: a path too short to tell from an object's, a POST
// without its body's schema, an action that serves the list in a version the api lacks, two
// places for one action, and a status with no body.
export default model("Crate", {
  app: "store", route: "crates", display: "{name}", ordering: ["name"], nested: ["name"],
  operations: ["retrieve"],
  fields: { name: field.string({ required: true, maxLength: 50 }) },
  actions: {
    open: { description: "Open it", response: { type: "object" }, path: "{id}/open" },
    seal: { description: "Seal it", response: { type: "object" }, method: "POST", status: 204 },
    legacy: { description: "The old list", response: { type: "array" }, servesList: { until: "0.9" }, onApp: true },
    weigh: { description: "Weigh it", response: { type: "object" }, request: { type: "object" }, permission: "Weigh!" },
  },
});
