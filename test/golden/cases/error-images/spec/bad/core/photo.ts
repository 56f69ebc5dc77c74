import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Photo", {
  app: "core",
  route: "photos",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    height: field.string({ maxLength: 5 }),
    picture: field.image({ required: true, uploadTo: "../photos", height: "height", width: "breadth" }),
  },
  nested: ["name"],
});
