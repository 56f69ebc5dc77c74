// The Events Calendar fills a new venue's `stateprovince` from the field its country uses:
// `state` in the United States (or when no country is given), `province` elsewhere.
import type { SaveEvent } from "../../../runtime/hooks.js";
import type { VenuesVenue } from "../../../generated/calendar/rows.js";

const STATE_COUNTRIES = new Set(["", "US", "United States"]);

export function beforeSave({ id, values }: SaveEvent<VenuesVenue>): void {
  if (id !== null || values.stateprovince !== undefined) return;
  values.stateprovince = values.state && STATE_COUNTRIES.has(String(values.country ?? "")) ? values.state : values.province ?? "";
}
