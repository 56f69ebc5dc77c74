// A model's component schemas in one version (full, nested, brief, writable, patched, pages)
// and its list's filter parameters. Takes the IR model; gives schemas and parameter objects.
// Builds no path: drf-model-paths.ts refers to what this names.
import { FILTER_FALSE, FILTER_TRUE, inVersion, requiredIn, type FieldDescriptor } from "../../../runtime/descriptor.js";
import type { IrApi, IrModel } from "../../ir/index.js";
import { kindOf } from "../../kinds/index.js";
import { idSchema, objectSchema, pageOf, unknownKeys } from "./drf-common.js";
import { componentName, describe, modelByKey, ref, type Schema } from "./schemas.js";

function readSchema(api: IrApi, m: IrModel, f: FieldDescriptor, nested: boolean, version: string): Schema {
  return kindOf(f).readSchema(f, {
    api, model: m, version, nested, idOf: (key) => idSchema(api, key),
    nestedRef: (key) => ref(componentName.nested(modelByKey(api, key).name)),
    shapeOf(key, names) {
      const target = modelByKey(api, key);
      const fields = readable(target, version, api.versions.supported, names);
      return objectSchema(fields.map((x) => [x.name, readSchema(api, target, x, true, version)]), fields.map((x) => x.name));
    },
  });
}

/** The fields of the full shape in `version`, or of the shape `names` lists (nested and brief forms, which no version changes). */
function readable(m: IrModel, version: string, versions: string[], names?: string[]): FieldDescriptor[] {
  const fields = m.fields.filter((f) => !f.writeOnly);
  return names ? names.map((n) => fields.find((f) => f.name === n)).filter((f): f is FieldDescriptor => !!f)
    : fields.filter((f) => !f.nestedOnly && inVersion(f, version, versions));
}

function writable(m: IrModel, version: string, versions: string[]): FieldDescriptor[] {
  return m.fields.filter((f) => !f.readOnly && inVersion(f, version, versions) && kindOf(f).writeSchema);
}

export function modelComponents(api: IrApi, m: IrModel, version: string): Record<string, Schema> {
  const versions = api.versions.supported;
  const full = readable(m, version, versions);
  const nested = readable(m, version, versions, m.nested);
  const brief = readable(m, version, versions, m.brief);
  const writes = writable(m, version, versions);
  const required = writes.filter((f) => requiredIn(f, version, versions)).map((f) => f.name);
  // The server ignores read-only keys, and unknown ones unless STRICT_WRITE_FIELDS: described as
  // such. The read-only ones carry no `readOnly`, which validators read as "must not be sent".
  const writeProperties = Object.fromEntries(m.fields.filter((f) => inVersion(f, version, versions)).flatMap((f): Array<[string, Schema]> =>
    writes.includes(f) ? [[f.name, describe(kindOf(f).writeSchema!(f, { idOf: (key) => idSchema(api, key) }), f)]]
      // Where unknown keys are refused, a read-only one is named to be let through; elsewhere
      // the body's `additionalProperties` says it: any key that names no writable field is ignored.
      : f.readOnly && api.settings.STRICT_WRITE_FIELDS === true ? [[f.name, { description: "Read-only: ignored when sent." }]] : []));
  const out: Record<string, Schema> = {
    // An excludable field is absent from replies whose `exclude` names it, an opt-in one from
    // GETs whose `include` does not.
    [componentName.full(m.name)]: objectSchema(full.map((f) => [f.name, describe(readSchema(api, m, f, false, version), f)]),
      full.filter((f) => !(f.kind === "computed" && f.excludable) && !f.optIn).map((f) => f.name), { description: m.description }),
    [componentName.nested(m.name)]: objectSchema(nested.map((f) => [f.name, readSchema(api, m, f, true, version)]), nested.map((f) => f.name)),
    // A full write is a partial one with its required fields: written once, in the partial one.
    // The required ones first, as a schema with both checks them first (write errors keep their order).
    [componentName.writable(m.name)]: required.length ? { allOf: [{ required }, ref(componentName.patched(m.name))] } : ref(componentName.patched(m.name)),
    [componentName.patched(m.name)]: {
      type: "object",
      properties: writeProperties,
      ...unknownKeys(api),
    },
    [componentName.paginated(m.name)]: pageOf(ref(componentName.full(m.name))),
    [componentName.paginated(componentName.brief(m.name))]: pageOf(ref(componentName.brief(m.name))),
  };
  out[componentName.brief(m.name)] = objectSchema(brief.map((f) => [f.name, readSchema(api, m, f, true, version)]), brief.map((f) => f.name));
  return out;
}

/** The type of one value of a filter, as strict as the runtime's own check of it. */
function filterValueSchema(api: IrApi, m: IrModel, flt: IrModel["filters"][number]): Schema {
  const field = m.fields.find((f) => f.name === flt.field);
  switch (flt.kind) {
    case "number": return { type: (field?.kind === "scalar" && field.type === "integer") || (field?.kind === "id" && field.integer) ? "integer" : "number" };
    case "uuid": return { type: "string", format: "uuid" };
    // The link's target (at the end of `via`, for a filter through related rows) decides the ids' type.
    case "fk": return flt.idOnly ? idSchema(api, linkTarget(api, m, flt)) : { type: "string" };
    case "method": return flt.choices ? { enum: flt.choices } : flt.takes === "uuid" ? { type: "string", format: "uuid" } : flt.takes === "number" ? { type: "number" } : { type: "string" };
    case "date": return { type: "string", format: "date" };
    case "datetime": return { type: "string", format: "date-time" };
    case "contentTypes": return { enum: field?.kind === "contentTypes" ? field.models : [] };
    // "null" matches objects without a value.
    case "choice": return { enum: [...(field?.kind === "choice" ? field.choices : []).map(([v]) => String(v)), "null"] };
    case "network":
      if (flt.network === "family") return { type: "integer", enum: [4, 6] };
      if (flt.network?.startsWith("mask_length")) return { type: "integer", minimum: 0, maximum: 128 };
      return { type: "string" };
    default: return { type: "string" };
  }
}

/** The model a link filter names objects of: its field's target, reached through `via`. */
function linkTarget(api: IrApi, m: IrModel, flt: IrModel["filters"][number]): string {
  let model: IrModel = m;
  for (const name of [...(flt.via ?? []), flt.field!]) {
    const f = model.fields.find((x) => x.name === name);
    if (!f || !("target" in f)) throw new Error(`${m.key}: filter ${flt.param} follows ${name}, which links nowhere`);
    if (name === flt.field) return f.target;
    model = modelByKey(api, f.target);
  }
  throw new Error(`${m.key}: filter ${flt.param} has no field`);
}

export function filterParameters(api: IrApi, m: IrModel, only?: string[]): Schema[] {
  return m.filters.filter((flt) => !only || only.includes(flt.param)).map((flt) => {
    // Booleans as the server reads them (the last value given), `True` as Python clients send it.
    const schema: Schema = flt.kind === "boolean" || flt.kind === "hasRelated" || flt.kind === "present" || (flt.kind === "method" && flt.takes === "boolean") ? { type: "string", enum: [...FILTER_TRUE, ...FILTER_FALSE] }
      : flt.kind === "q" ? { type: "string" }
      // One number (the last given), truncated to a whole one.
      : flt.kind === "contains" ? { type: "number" }
      : { type: "array", items: filterValueSchema(api, m, flt) };
    const p: Schema = { name: flt.param, in: "query", required: false, schema };
    if (schema.type === "array") Object.assign(p, { style: "form", explode: true });
    return p;
  });
}
