// An API's models indexed for the runtime: by key, by route, by field name, and the
// version filter. Built once at startup from the generated descriptors.
import { inVersion, modelRoute, requiredIn, storedColumn, type ApiDescriptor, type FieldDescriptor, type FkField, type GenericField, type ModelDescriptor } from "./descriptor.js";

/** A column of another model pointing at rows of a model: at their ids, or (`by`) at another column of theirs. */
export type Dependent = Pick<FkField, "column" | "onDelete"> & { by?: string };

export class ModelIndex {
  readonly byKey = new Map<string, ModelDescriptor>();
  readonly byRoute = new Map<string, ModelDescriptor>();
  /** Actions served on an app (`dcim/connected-device`), with the model whose hook answers them. */
  readonly appActions = new Map<string, { model: ModelDescriptor; name: string }>();
  /** A model's further list routes (`dcim/console-connections`), with what each lists. */
  readonly listings = new Map<string, { model: ModelDescriptor; column: string; filters: Set<string> }>();
  private readonly fieldMaps = new Map<string, Map<string, FieldDescriptor>>();

  constructor(readonly api: ApiDescriptor) {
    for (const m of api.models) {
      this.byKey.set(m.key, m);
      this.byRoute.set(modelRoute(m), m);
      for (const a of m.actions ?? []) if (a.onApp) this.appActions.set(`${m.app}/${a.name}`, { model: m, name: a.name });
      for (const l of m.listings ?? []) this.listings.set(`${m.app}/${l.route}`, { model: m, column: l.column, filters: new Set(l.filters) });
      this.fieldMaps.set(m.key, new Map(m.fields.map((f) => [f.name, f])));
    }
  }

  model(key: string): ModelDescriptor {
    const m = this.byKey.get(key);
    if (!m) throw new Error(`unknown model ${key}`);
    return m;
  }

  field(m: ModelDescriptor, name: string): FieldDescriptor | undefined {
    return this.fieldMaps.get(m.key)!.get(name);
  }

  /** The column of a stored field that an API convention requires (auth models' fields). */
  column(m: ModelDescriptor, name: string): string {
    const f = this.field(m, name);
    const column = f && storedColumn(f);
    if (!column) throw new Error(`${m.key} has no stored field ${name}`);
    return column;
  }

  /** Whether the rows of `m` have integer keys (a serial-id API, the content-type registry, a serial model) rather than UUIDs. */
  integerKeys(m: ModelDescriptor): boolean {
    return this.api.idType === "serial" || m.fields.some((f) => f.kind === "id" && !!f.integer);
  }

  /** Whether a field exists in the given API version (`since`/`until`). */
  inVersion(f: FieldDescriptor, version: string): boolean {
    return inVersion(f, version, this.api.versions.supported);
  }

  /** Whether a field is required in the given API version (`requiredSince`). */
  requiredIn(f: FieldDescriptor, version: string): boolean {
    return requiredIn(f, version, this.api.versions.supported);
  }

  /** Models whose foreign keys (or status columns) point at `m`: what a delete of `m` may be blocked by. */
  dependents(m: ModelDescriptor): Array<{ model: ModelDescriptor; field: Dependent }> {
    const out: Array<{ model: ModelDescriptor; field: Dependent }> = [];
    for (const other of this.api.models) {
      if (other.view) continue;
      for (const f of other.fields) {
        if (f.kind === "fk" && f.target === m.key) out.push({ model: other, field: f });
        // A status column holds the status's slug; the database refuses to delete one in use.
        if (f.kind === "status" && f.statuses.model === m.key) out.push({ model: other, field: { column: f.column, onDelete: "protect", by: "slug" } });
      }
    }
    return out;
  }

  /** The generic references of other models that name `m` among their targets. */
  genericDependents(m: ModelDescriptor): Array<{ model: ModelDescriptor; field: GenericField }> {
    const out: Array<{ model: ModelDescriptor; field: GenericField }> = [];
    for (const other of this.api.models) {
      if (other.view) continue;
      for (const f of other.fields) if (f.kind === "generic" && f.targets.includes(m.key)) out.push({ model: other, field: f });
    }
    return out;
  }
}
