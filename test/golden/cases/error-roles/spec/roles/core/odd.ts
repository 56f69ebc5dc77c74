import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Odd", {
  app: "core",
  route: "odds",
  idType: "integer" as never,
  display: "{name|display}",
  ordering: ["name"],
  fields: { name: field.string({ required: true, maxLength: 150 }), secret: field.string({ maxLength: 10, readOnly: true, writeOnly: true }) },
  nested: ["name"],
  filters: { aliases: { name: "name", secret: "secret" } },
});
