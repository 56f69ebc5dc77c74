// Nautobot's RouteTargetFilterSet: route targets by the VRFs importing or exporting them.
import type { MethodQuery } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

const linkedBy = (table: string) => ({ alias, ids }: MethodQuery) =>
  `EXISTS (SELECT 1 FROM ${table} j WHERE j.routetarget_id = ${alias}.id AND j.source_id = ANY(${ids}))`;

export const filters = {
  importing_vrf: linkedBy(tables.ipam.vrf.links.import_targets.table),
  importing_vrf_id: linkedBy(tables.ipam.vrf.links.import_targets.table),
  exporting_vrf: linkedBy(tables.ipam.vrf.links.export_targets.table),
  exporting_vrf_id: linkedBy(tables.ipam.vrf.links.export_targets.table),
};
