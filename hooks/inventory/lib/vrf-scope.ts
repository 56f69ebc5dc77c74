// Nautobot's `present_in_vrf` filters (prefixes, IP addresses): the row's VRF is one named,
// or exports a route target that a named VRF imports; and a VRF's name as its errors quote it.
import type { MethodQuery } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";
import { namesOf } from "./tables.js";

/** Rows (of prefixes or IP addresses: both name their VRF in a `vrf` field) in one of the VRFs named, or seeing one. */
export const presentInVrf = ({ alias, model, ids }: MethodQuery): string => {
  const { export_targets: e, import_targets: i } = tables.ipam.vrf.links;
  return `${alias}.${namesOf(model.key).columns.vrf} IN (SELECT seen.id FROM unnest(${ids}) AS named(id), LATERAL (` +
    `SELECT named.id AS id UNION SELECT e.${e.source} FROM ${e.table} e ` +
    `JOIN ${i.table} i ON i.${i.target} = e.${e.target} WHERE i.${i.source} = named.id) AS seen)`;
};

export const vrfScopeFilters = { present_in_vrf: presentInVrf, present_in_vrf_id: presentInVrf };

/** A VRF as Nautobot's str() writes it in error texts: `name (rd)`, or the name alone. */
export const vrfLabel = (vrf: { name: string; rd: string | null }): string => (vrf.rd ? `${vrf.name} (${vrf.rd})` : vrf.name);
