// The generator's field kinds, by kind: adding a kind means adding its module here (the
// table's type makes a missing entry a compile error).
import type { FieldDescriptor } from "../../runtime/descriptor.js";
import type { FieldSpec } from "../dsl/index.js";
import { choice, choiceSpec } from "./choice.js";
import { computed, computedSpec } from "./computed.js";
import { contentType, contentTypeSpec } from "./content-type.js";
import { contentTypes, contentTypesSpec } from "./content-types.js";
import { count, countSpec } from "./count.js";
import { computedFields } from "./computed-fields.js";
import { customFields } from "./custom-fields.js";
import { depth } from "./depth.js";
import { display } from "./display.js";
import { firstSet, firstSetSpec } from "./first-set.js";
import { fk, fkSpec } from "./fk.js";
import { generic, genericSpec } from "./generic.js";
import { id } from "./id.js";
import { image, imageSpec } from "./image.js";
import { ipFamily, ipFamilySpec } from "./ip-family.js";
import { list, listSpec } from "./list.js";
import { m2m, m2mSpec } from "./m2m.js";
import { reverse, reverseSpec } from "./reverse.js";
import { relationships } from "./relationships.js";
import { scalar, scalarSpec } from "./scalar.js";
import { tags } from "./tags.js";
import { status, statusSpec } from "./status.js";
import { treeParent } from "./tree-parent.js";
import type { GeneratorFieldKind, GeneratorKindTable, SpecKindTable, SpecRules } from "./types.js";
import { url } from "./url.js";

const KINDS: GeneratorKindTable = {
  id, url, display, scalar, choice, list, fk, treeParent, m2m, tags, ipFamily, count, reverse, firstSet, depth, customFields, computedFields, computed, contentType, contentTypes, generic, relationships, status, imageFile: image,
};

const SPEC_KINDS: SpecKindTable = {
  scalar: scalarSpec, choice: choiceSpec, list: listSpec, ipFamily: ipFamilySpec, count: countSpec, reverse: reverseSpec, fk: fkSpec, firstSet: firstSetSpec, m2m: m2mSpec,
  computed: computedSpec, contentType: contentTypeSpec, contentTypes: contentTypesSpec, generic: genericSpec, status: statusSpec, imageFile: imageSpec,
};

/** The rules of a spec field's kind; undefined for a kind the spec language does not have. */
export function specKindOf<S extends FieldSpec>(f: S): SpecRules<S, FieldDescriptor> | undefined {
  return SPEC_KINDS[f.kind] as unknown as SpecRules<S, FieldDescriptor> | undefined;
}

/** The generator module of a field's kind. */
export function kindOf<F extends FieldDescriptor>(f: F): GeneratorFieldKind<F> {
  return KINDS[f.kind] as unknown as GeneratorFieldKind<F>;
}
