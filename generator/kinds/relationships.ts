// The `relationships` field of a model that relationships may join: no column (the
// associations are rows of their own model); its keys are relationship slugs, which are data.
import type { RelationshipsField } from "../../runtime/descriptor.js";
import type { GeneratorFieldKind } from "./types.js";

const NESTED = {
  type: "object",
  properties: { id: { type: "string", format: "uuid" }, url: { type: "string", format: "uri", readOnly: true }, display: { type: "string", readOnly: true } },
  additionalProperties: true,
};
const SIDE = {
  type: "object",
  properties: { label: { type: "string", readOnly: true }, object_type: { type: "string", readOnly: true }, objects: { type: "array", items: NESTED } },
};

export const relationships: GeneratorFieldKind<RelationshipsField> = {
  readSchema: () => ({
    type: "object",
    additionalProperties: {
      type: "object",
      required: ["id", "url", "name", "type"],
      properties: {
        id: { type: "string", format: "uuid", readOnly: true },
        url: { type: "string", format: "uri", readOnly: true },
        name: { type: "string", readOnly: true },
        type: { type: "string", readOnly: true },
        source: SIDE,
        destination: SIDE,
        peer: SIDE,
      },
    },
  }),
  writeSchema: () => ({ type: "object", additionalProperties: {} }),
};
