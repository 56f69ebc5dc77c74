// Nautobot's IPAddress.clean(): an address with a /0 mask names no network. And the
// IPAddressFilterSet methods.
import { Refusal, type SaveEvent } from "../../../runtime/hooks.js";
import { vrfScopeFilters } from "./vrf-scope.js";

export function beforeSave({ values }: SaveEvent): void {
  if (typeof values.address === "string" && values.address.endsWith("/0")) throw new Refusal({ address: "Cannot create IP address with /0 mask." });
}

export const filters = vrfScopeFilters;
