// The runtime's field kinds, by kind: adding a kind means adding its module here, or to the
// feature that brings it (runtime/features/). The features' registry completes the table as it
// loads, so this module knows no feature; the table's type makes a kind that neither gives a
// compile error there.
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
import { url } from "./url.js";

const CORE = {
  id, url, display, scalar, choice, list, fk, treeParent, m2m, ipFamily, count, reverse, firstSet, depth, computedFields, computed, contentType, contentTypes, generic, status, imageFile: image,
} satisfies Partial<RuntimeKindTable>;

/** The kinds the cross-cutting features bring: every kind the core table lacks. */
export type FeatureKinds = Omit<RuntimeKindTable, keyof typeof CORE>;

const KINDS: Partial<RuntimeKindTable> = { ...CORE };

/** Completes the table with the features' kinds (runtime/features/index.ts calls it as it loads). */
export function registerKinds(kinds: FeatureKinds): void {
  Object.assign(KINDS, kinds);
}

/** The runtime module of a field's kind. */
export function kindOf<F extends FieldDescriptor>(f: F): RuntimeFieldKind<F> {
  const kind = KINDS[f.kind];
  if (!kind) throw new Error(`no runtime kind "${f.kind}": the feature that brings it is not registered (runtime/features/index.ts)`);
  return kind as unknown as RuntimeFieldKind<F>;
}
