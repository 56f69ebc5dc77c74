// Nautobot's RouteTargetFilterSet: route targets by the VRFs importing or exporting them.
import type { MethodQuery } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

const linkedBy = (link: { table: string; source: string; target: string }) => ({ alias, ids }: MethodQuery) =>
  `EXISTS (SELECT 1 FROM ${link.table} j WHERE j.${link.target} = ${alias}.id AND j.${link.source} = ANY(${ids}))`;

const { import_targets: IMPORTS, export_targets: EXPORTS } = tables.ipam.vrf.links;

export const filters = {
  importing_vrf: linkedBy(IMPORTS),
  importing_vrf_id: linkedBy(IMPORTS),
  exporting_vrf: linkedBy(EXPORTS),
  exporting_vrf_id: linkedBy(EXPORTS),
};
