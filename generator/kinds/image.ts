// An uploaded image: a text column holding the file's name under the media root, two integer
// fields of the model taking its size; read as the file's URL, written as a file part of a
// multipart body (runtime/kinds/image.ts).
import type { ImageField } from "../../runtime/descriptor.js";
import type { FieldSpec, ImageField as ImageSpec } from "../dsl/index.js";
import { nullable, withLookups, type GeneratorFieldKind, type SpecRules } from "./types.js";

const isInteger = (f: FieldSpec | undefined) => f?.kind === "scalar" && f.type === "integer";

export const imageSpec: SpecRules<ImageSpec, ImageField> = {
  check(f, { fields, err }) {
    if (typeof f.uploadTo !== "string" || !/^([a-z0-9_-]+\/)+$/.test(f.uploadTo)) err(`an image field's uploadTo must be a folder ending in "/" (letters, digits, "-", "_"), not ${JSON.stringify(f.uploadTo)}`);
    if (!isInteger(fields[f.height])) err(`an image field's height must name an integer field, not "${f.height}"`);
    if (!isInteger(fields[f.width])) err(`an image field's width must name an integer field, not "${f.width}"`);
  },
  build: (f, common, { name, fields }) => ({
    ...common, kind: "imageFile", column: f.column ?? name, maxLength: f.maxLength ?? 100, uploadTo: f.uploadTo,
    heightColumn: fields[f.height].column ?? f.height, widthColumn: fields[f.width].column ?? f.width,
  }),
};

export const image: GeneratorFieldKind<ImageField> = {
  schema(f, { table }) {
    table.columns[f.column] = { type: `varchar(${f.maxLength})`, nullable: f.nullable || !f.required };
  },
  readSchema: (f) => nullable({ type: "string", format: "uri" }, f.nullable),
  writeSchema: (f) => nullable({ type: "string", format: "binary" }, f.nullable),
  filters: (f, add) => withLookups(add, f.name, "string", ["n"]),
};
