import { field, model } from "../../../../../../../generator/dsl/index.js";

// The maintainer's typos: each is reported with the option it most likely meant.
export default model("Site", {
  app: "store", route: "sites", display: "{name}", ordering: ["name"], nested: ["name"],
  fields: {
    name: field.string({ required: true, maxLenght: 21 } as never),
    code: field.string({ maxLength: 10, uniqe: true } as never),
    floor: field.integer({ nullable: true, minimum: 0 } as never),
  },
  filters: { q: ["name"], exlude: ["code"] } as never,
  odering: ["name"],
} as never);
