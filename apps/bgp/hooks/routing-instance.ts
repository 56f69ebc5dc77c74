// The BGP app's BGPRoutingInstanceFilterSet.search: the device's name.
import { routingInstanceSearch } from "./lib/search.js";

export const filters = { q: routingInstanceSearch };
