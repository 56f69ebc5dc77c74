import { model, field, ref, choices, type FilterSpec } from "../../../generator/dsl/index.js";

export const CableType = choices("CableType", [
  ["cat3", "CAT3"], ["cat5", "CAT5"], ["cat5e", "CAT5e"], ["cat6", "CAT6"], ["cat6a", "CAT6a"], ["cat7", "CAT7"], ["cat7a", "CAT7a"],
  ["cat8", "CAT8"], ["dac-active", "Direct Attach Copper (Active)"], ["dac-passive", "Direct Attach Copper (Passive)"],
  ["mrj21-trunk", "MRJ21 Trunk"], ["coaxial", "Coaxial"], ["mmf", "Multimode Fiber"], ["mmf-om1", "Multimode Fiber (OM1)"],
  ["mmf-om2", "Multimode Fiber (OM2)"], ["mmf-om3", "Multimode Fiber (OM3)"], ["mmf-om4", "Multimode Fiber (OM4)"],
  ["smf", "Singlemode Fiber"], ["smf-os1", "Singlemode Fiber (OS1)"], ["smf-os2", "Singlemode Fiber (OS2)"],
  ["aoc", "Active Optical Cabling (AOC)"], ["power", "Power"], ["other", "Other"],
]);

export const CableStatus = choices("CableStatus", [["connected", "Connected"], ["planned", "Planned"], ["decommissioning", "Decommissioning"]]);

export const CableLengthUnit = choices("CableLengthUnit", [
  ["km", "Kilometers"], ["m", "Meters"], ["cm", "Centimeters"], ["mi", "Miles"], ["ft", "Feet"], ["in", "Inches"],
]);

/** What a cable may end on (Nautobot's CABLE_TERMINATION_MODELS). */
export const CABLE_ENDS = [
  "circuits.CircuitTermination", "dcim.ConsolePort", "dcim.ConsoleServerPort", "dcim.FrontPort", "dcim.Interface", "dcim.PowerFeed", "dcim.PowerOutlet", "dcim.PowerPort",
  "dcim.RearPort",
];

/** Where a traced path may end (Nautobot's PathEndpoint models). */
export const PATH_ENDPOINTS = ["circuits.CircuitTermination", "dcim.ConsolePort", "dcim.ConsoleServerPort", "dcim.Interface", "dcim.PowerFeed", "dcim.PowerOutlet", "dcim.PowerPort"];

const internal = { nullable: true, readOnly: true, writeOnly: true } as const;

/**
 * The fields of a model a cable may end on: its cable, and the far end of that cable. Both are
 * kept by the cable's hook (hooks/inventory/lib/cabling.ts), never written by clients.
 */
export const cableEnd = () => ({
  cable: ref.fk("dcim.Cable", { relatedName: "+", nullable: true, readOnly: true, onDelete: "setNull", idWhenNested: true }),
  cable_peer: ref.generic({ type: "cable_peer_type", id: "cable_peer_id", relatedName: "+" }),
  cable_peer_type: field.contentType({ models: CABLE_ENDS, nullable: true, readOnly: true }),
  cable_peer_id: field.uuid(internal),
});

/**
 * The fields of a path endpoint: where its traced cable path ends and whether every cable on
 * the way is connected (null without a path). Copied from the stored path when it is traced.
 */
export const pathEndpoint = () => ({
  connected_endpoint: ref.generic({ type: "connected_endpoint_type", id: "connected_endpoint_id", relatedName: "+" }),
  connected_endpoint_type: field.contentType({ models: PATH_ENDPOINTS, nullable: true, readOnly: true }),
  connected_endpoint_id: field.uuid(internal),
  connected_endpoint_reachable: field.boolean({ nullable: true, readOnly: true }),
});

const object = { type: "object", additionalProperties: {} };
const objectOrNull = { anyOf: [object, { type: "null" }] };

/** A path endpoint's `trace`: Nautobot's PathEndpointMixin.trace. */
export const traceAction = {
  trace: {
    description: "The traced cable path from this endpoint: a [near end, cable, far end] triple per cable",
    response: { type: "array", items: { type: "array", prefixItems: [object, objectOrNull, objectOrNull], minItems: 3, maxItems: 3 } },
  },
};

/** A pass-through port's `paths`: Nautobot's PassThroughPortMixin.paths. */
export const pathsAction = {
  paths: {
    description: "The traced cable paths passing through this port",
    response: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "string", format: "uuid" }, origin_type: { type: "string" }, origin: object,
          destination_type: { type: ["string", "null"] }, destination: objectOrNull,
          path: { type: "array", items: objectOrNull }, is_active: { type: "boolean" }, is_split: { type: "boolean" },
        },
        required: ["id", "origin_type", "origin", "destination_type", "destination", "path", "is_active", "is_split"],
      },
    },
  },
};

/** Filters of a cable end, and of a path endpoint with `endpoint`, as Nautobot's filter set mixins. */
export const cableEndFilters = (endpoint: boolean): FilterSpec => (endpoint
  ? { exclude: ["cable_peer_type", "connected_endpoint_type", "connected_endpoint_reachable"], present: { cabled: "cable", connected: "connected_endpoint_reachable" } }
  : { exclude: ["cable_peer_type"], present: { cabled: "cable" } });

export default model("Cable", {
  app: "dcim",
  route: "cables",
  description: "A physical connection between two cable ends.",
  display: "[{label}|#{id}]",
  ordering: ["termination_a_type", "termination_a_id", "termination_b_type", "termination_b_id"],
  features: ["tags", "customFields", "notes", "changeLogged"],
  hooks: "dcim/cable",
  fields: {
    termination_a_type: field.contentType({ required: true, models: CABLE_ENDS }),
    termination_a_id: field.uuid({ required: true }),
    termination_a: ref.generic({ type: "termination_a_type", id: "termination_a_id" }),
    termination_b_type: field.contentType({ required: true, models: CABLE_ENDS }),
    termination_b_id: field.uuid({ required: true }),
    termination_b: ref.generic({ type: "termination_b_type", id: "termination_b_id" }),
    type: field.choice(CableType, { blank: true }),
    status: field.status({ required: true, defaults: CableStatus }),
    label: field.string({ maxLength: 100 }),
    color: field.string({ maxLength: 6, format: "color" }),
    length: field.integer({ nullable: true, min: 0, max: 32767 }),
    length_unit: field.choice(CableLengthUnit, { blank: true }),
    // The devices of the two ends, for filtering (Nautobot's _termination_a_device): a device
    // takes its cables with it.
    termination_a_device: ref.fk("dcim.Device", { ...internal, onDelete: "cascade" }),
    termination_b_device: ref.fk("dcim.Device", { ...internal, onDelete: "cascade" }),
  },
  uniqueTogether: [["termination_a_type", "termination_a_id"], ["termination_b_type", "termination_b_id"]],
  nested: ["label"],
  filters: {
    q: ["label"],
    via: {
      device: ["termination_a_device", "termination_b_device"],
      rack: ["termination_a_device.rack", "termination_b_device.rack"],
      site: ["termination_a_device.site", "termination_b_device.site"],
      region: ["termination_a_device.site.region", "termination_b_device.site.region"],
      tenant: ["termination_a_device.tenant", "termination_b_device.tenant"],
    },
  },
  sql: {
    // Nautobot's CablePath: each path endpoint's traced path (cables and pass-through ports,
    // as "app.model:id" nodes), kept by the cable hooks; no endpoint of its own.
    cable_paths: {
      up: `CREATE TABLE IF NOT EXISTS "dcim_cablepath" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "origin_type" varchar(100) NOT NULL,
  "origin_id" uuid NOT NULL,
  "destination_type" varchar(100),
  "destination_id" uuid,
  "path" jsonb NOT NULL DEFAULT '[]',
  "is_active" boolean NOT NULL DEFAULT false,
  "is_split" boolean NOT NULL DEFAULT false,
  CONSTRAINT "dcim_cablepath_origin" UNIQUE ("origin_type", "origin_id")
);
CREATE INDEX IF NOT EXISTS "dcim_cablepath_path" ON "dcim_cablepath" USING gin ("path");`,
      down: `DROP TABLE IF EXISTS "dcim_cablepath";`,
    },
  },
});
