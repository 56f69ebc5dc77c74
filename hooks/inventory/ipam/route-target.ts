// Nautobot's RouteTargetFilterSet: route targets by the VRFs importing or exporting them.
import type { MethodQuery } from "../../../runtime/hooks.js";

const linkedBy = (table: string) => ({ alias, ids }: MethodQuery) =>
  `EXISTS (SELECT 1 FROM ${table} j WHERE j.routetarget_id = ${alias}.id AND j.source_id = ANY(${ids}))`;

export const filters = {
  importing_vrf: linkedBy("ipam_vrf_import_targets"),
  importing_vrf_id: linkedBy("ipam_vrf_import_targets"),
  exporting_vrf: linkedBy("ipam_vrf_export_targets"),
  exporting_vrf_id: linkedBy("ipam_vrf_export_targets"),
};
