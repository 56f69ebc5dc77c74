import { model, field } from "../../../../../../../generator/dsl/index.js";

export default model("Thing", {
  app: "core",
  route: "things",
  display: "{name}",
  ordering: ["name"],
  fields: {
    name: field.string({ required: true, maxLength: 50 }),
    future: field.string({ maxLength: 50, since: "2.0" }),
    gone: field.string({ maxLength: 50, until: "v1" }),
    never: field.string({ maxLength: 50, since: "1.2", until: "1.1" }),
    demanded: field.string({ required: true, maxLength: 50, since: "1.1" }),
    // Fine: creates through 1.0 get the default.
    defaulted: field.string({ required: true, maxLength: 50, since: "1.1", default: "x" }),
    optional: field.string({ maxLength: 50, requiredSince: "1.1" }),
    later: field.string({ required: true, maxLength: 50, requiredSince: "1.9" }),
    // Fine: required from 1.1, optional through 1.0.
    labelled: field.string({ required: true, maxLength: 50, requiredSince: "1.1" }),
    // Fine: a field clients never write needs no default.
    shown: field.string({ readOnly: true, maxLength: 50, since: "1.1" }),
  },
  nested: ["name"],
});
