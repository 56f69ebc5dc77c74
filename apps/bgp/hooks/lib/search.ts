// The BGP app's filter methods (its filters.py), as SQL over the row aliased `alias`: the
// free-text searches of the models whose `q` reaches past their own columns (or, for an ASN,
// into a number's digits), and a peering's devices through its endpoints. A helper of the
// app's hook modules, which name these as their `filters`.
import { col, containsPattern as contains, ident, textSearch as search, type MethodQuery } from "../../../../runtime/hooks.js";
import { tables } from "../../../../generated/inventory/tables.js";

// Read when called: the generator loads hook modules before it writes the tables.
const T = () => tables.nautobot_bgp_models;

/** The name of the device of the routing instance `fk` (a column of `alias`) names. */
const deviceNameOf = (alias: string, fk: string) => {
  const ri = T().bgproutinginstance, device = tables.dcim.device;
  return `(SELECT d.${ident(device.columns.name)} FROM ${ident(ri.table)} ri JOIN ${ident(device.table)} d ON d.${ident(device.columns.id)} = ri.${ident(ri.columns.device)}
    WHERE ri.${ident(ri.columns.id)} = ${col(alias, fk)})`;
};

/** AutonomousSystemFilterSet.search: `asn__icontains` (the number as text) or `description__icontains`. */
export function autonomousSystemSearch({ alias, values }: MethodQuery): string {
  const c = T().autonomoussystem.columns;
  return search(values!, (v) => `${col(alias, c.asn)}::text ILIKE ${contains(v)} OR ${col(alias, c.description)} ILIKE ${contains(v)}`);
}

/** BGPRoutingInstanceFilterSet.search: `device__name__icontains`. */
export function routingInstanceSearch({ alias, values }: MethodQuery): string {
  const c = T().bgproutinginstance.columns, device = tables.dcim.device;
  return search(values!, (v) => `EXISTS (SELECT 1 FROM ${ident(device.table)} d WHERE d.${ident(device.columns.id)} = ${col(alias, c.device)} AND d.${ident(device.columns.name)} ILIKE ${contains(v)})`);
}

/**
 * PeerEndpointFilterSet.search: `routing_instance__device__name__iexact` (the app's other half,
 * `description__icontains`, reads a column its API never writes, so never matches there either).
 */
export function peerEndpointSearch({ alias, values }: MethodQuery): string {
  const c = T().peerendpoint.columns;
  return search(values!, (v) => `lower(${deviceNameOf(alias, c.routing_instance)}) = lower(${v})`);
}

/** PeeringFilterSet.device: peerings with an endpoint on one of the devices (`endpoints__routing_instance__device`). */
export function peeringDevice({ alias, ids }: MethodQuery): string {
  const e = T().peerendpoint, ri = T().bgproutinginstance;
  const p = T().peering;
  return `EXISTS (SELECT 1 FROM ${ident(e.table)} e JOIN ${ident(ri.table)} ri ON ri.${ident(ri.columns.id)} = e.${ident(e.columns.routing_instance)}
    WHERE e.${ident(e.columns.peering)} = ${col(alias, p.columns.id)} AND ri.${ident(ri.columns.device)} = ANY(${ids}))`;
}
