// The brief and bulk exchanges of the inventory's OpenAPI documents as documents of their
// own, so openapi-typescript types each exactly. The server's documents describe a GET's
// full form and a POST's one-object create as the operations themselves, and the brief form
// (a non-empty `brief` parameter) and the bulk create (a JSON array body) in the `x-brief`
// and `x-bulk` extensions of the same operations: OpenAPI cannot make one operation's reply
// depend on a parameter or on the body's shape.

type Json = Record<string, any>;

export const VARIANTS = { brief: "x-brief", bulk: "x-bulk" } as const;
export type VariantName = keyof typeof VARIANTS;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The operations of `doc` that have the variant, each as that variant describes it: its
 * parameters replace the operation's of the same name, its request body and responses the
 * operation's (the refusals stay the operation's own).
 */
export function variantDocument(doc: Json, name: VariantName): Json {
  const key = VARIANTS[name];
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const ops: Json = {};
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.[key]) continue;
      const { [key]: variant, ...own } = op;
      const replaced = new Set((variant.parameters ?? []).map((p: Json) => `${p.in}:${p.name}`));
      ops[method] = {
        ...own, ...variant,
        operationId: `${own.operationId}_${name}`,
        parameters: [...(own.parameters ?? []).filter((p: Json) => !replaced.has(`${p.in}:${p.name}`)), ...(variant.parameters ?? [])],
        responses: { ...own.responses, ...variant.responses },
      };
    }
    if (Object.keys(ops).length) paths[path] = { ...(item.parameters ? { parameters: item.parameters } : {}), ...ops };
  }
  return { ...doc, paths };
}
