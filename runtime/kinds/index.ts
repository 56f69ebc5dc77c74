// The runtime's field kinds, by kind: adding a kind means adding its module here, or to the
// feature that brings it (the table's type makes a missing entry a compile error).
import type { FieldDescriptor } from "../descriptor.js";
import { choice } from "./choice.js";
import { computed } from "./computed.js";
import { contentType } from "./content-type.js";
import { contentTypes } from "./content-types.js";
import { count } from "./count.js";
import { computedFields } from "./computed-fields.js";
import { depth } from "./depth.js";
import { display } from "./display.js";
import { firstSet } from "./first-set.js";
import { fk } from "./fk.js";
import { generic } from "./generic.js";
import { id } from "./id.js";
import { image } from "./image.js";
import { ipFamily } from "./ip-family.js";
import { list } from "./list.js";
import { m2m } from "./m2m.js";
import { reverse } from "./reverse.js";
import { scalar } from "./scalar.js";
import { status } from "./status.js";
import { treeParent } from "./tree-parent.js";
import type { RuntimeFieldKind, RuntimeKindTable } from "./types.js";
import { feature as tagsFeature } from "../features/tags/index.js";
import { feature as customFieldsFeature } from "../features/custom-fields/index.js";
import { feature as relationshipsFeature } from "../features/relationships/index.js";
import { url } from "./url.js";

const KINDS: RuntimeKindTable = {
  id, url, display, scalar, choice, list, fk, treeParent, m2m, ipFamily, count, reverse, firstSet, depth, computedFields, computed, contentType, contentTypes, generic, status, imageFile: image,
  // The kinds the cross-cutting features bring (runtime/features/).
  ...tagsFeature.kinds, ...customFieldsFeature.kinds, ...relationshipsFeature.kinds,
};

/** The runtime module of a field's kind. */
export function kindOf<F extends FieldDescriptor>(f: F): RuntimeFieldKind<F> {
  return KINDS[f.kind] as unknown as RuntimeFieldKind<F>;
}
