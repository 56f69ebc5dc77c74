import { app } from "../../../../../../generator/dsl/index.js";

export default app({
  api: "st", label: "lab", baseUrl: "lab", verboseName: "Lab", version: "1.0", author: "Someone", description: "Tests.",
  replaces: ["0002_create_lab_bench_rows_core_kind_seed_core_state_content_types.sql"],
});
