// Nautobot's Prefix.clean(): a /0 prefix would contain every other one; its location is in its
// site and of a type that holds prefixes. And the PrefixFilterSet methods.
import { Refusal, type MethodQuery, type SaveEvent } from "../../../runtime/hooks.js";
import { checkLocation } from "../dcim/located.js";
import { vrfScopeFilters } from "./vrf-scope.js";

export async function beforeSave({ db, id, values }: SaveEvent): Promise<void> {
  if (typeof values.prefix === "string" && values.prefix.endsWith("/0")) throw new Refusal({ prefix: "Cannot create prefix with /0 mask." });
  const current = id === null ? {} : (await db("ipam_prefix").where({ id }).first()) ?? {};
  await checkLocation(db, "ipam.prefix", "Prefixes", { ...current, ...values });
}

export const filters = {
  ...vrfScopeFilters,
  // Prefixes of a VLAN with this number (a value that is no number matches none).
  vlan_vid: ({ alias, values }: MethodQuery) => `EXISTS (SELECT 1 FROM ipam_vlan v WHERE v.id = ${alias}.vlan_id AND v.vid::text = ANY(${values}))`,
};
