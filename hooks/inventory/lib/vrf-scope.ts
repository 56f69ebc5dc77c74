// Nautobot's `present_in_vrf` filters (prefixes, IP addresses): the row's VRF is one named,
// or exports a route target that a named VRF imports; and a VRF's name as its errors quote it.
import type { MethodQuery } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

export const presentInVrf = ({ alias, ids }: MethodQuery): string =>
  `${alias}.vrf_id IN (SELECT seen.id FROM unnest(${ids}) AS named(id), LATERAL (` +
  `SELECT named.id AS id UNION SELECT e.source_id FROM ${tables.ipam.vrf.links.export_targets.table} e ` +
  `JOIN ${tables.ipam.vrf.links.import_targets.table} i ON i.routetarget_id = e.routetarget_id WHERE i.source_id = named.id) AS seen)`;

export const vrfScopeFilters = { present_in_vrf: presentInVrf, present_in_vrf_id: presentInVrf };

/** A VRF as Nautobot's str() writes it in error texts: `name (rd)`, or the name alone. */
export const vrfLabel = (vrf: { name: string; rd: string | null }): string => (vrf.rd ? `${vrf.name} (${vrf.rd})` : vrf.name);
