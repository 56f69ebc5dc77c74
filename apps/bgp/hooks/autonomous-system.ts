// The BGP app's AutonomousSystemFilterSet.search: the ASN as text, or the description.
import { autonomousSystemSearch } from "./lib/search.js";

export const filters = { q: autonomousSystemSearch };
