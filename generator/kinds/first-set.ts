// The first set of several foreign keys to one model: nothing stored, read only.
import type { FirstSetField } from "../../runtime/descriptor.js";
import type { FirstSetField as FirstSetSpec } from "../dsl/index.js";
import { fkColumn, refKey } from "../ir/names.js";
import { nullable, type GeneratorFieldKind, type SpecRules } from "./types.js";

export const firstSetSpec: SpecRules<FirstSetSpec, FirstSetField> = {
  check(f, { fields, err }) {
    if (!Array.isArray(f.fields) || f.fields.length < 2) return err("firstSet needs fields: two or more foreign keys of this model");
    const links = f.fields.map((n) => fields[n]);
    if (links.some((l) => l?.kind !== "fk")) return err(`firstSet fields must all be foreign keys of this model`);
    if (new Set(links.map((l) => (l as { target: string }).target)).size !== 1) err("firstSet fields must all point at one model");
  },
  build: (f, common, { fields }) => ({
    ...common,
    kind: "firstSet",
    readOnly: true,
    target: refKey((fields[f.fields[0]] as { target: string }).target),
    columns: f.fields.map((n) => (fields[n] as { column?: string }).column ?? fkColumn(n)),
  }),
};

export const firstSet: GeneratorFieldKind<FirstSetField> = {
  readSchema: (f, { nestedRef }) => ({ ...nullable(nestedRef(f.target), true), readOnly: true }),
};
