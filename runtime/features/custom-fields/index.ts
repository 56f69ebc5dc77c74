// Custom fields: definitions read with the write (definitions.ts), values checked and defaulted
// (values.ts), the `custom_fields` kind (kind.ts), `cf_<name>` filters (filters.ts) and their
// OPTIONS description (options.ts), and their columns in a flat file (columns.ts).
import type { Feature } from "../types.js";
import { customFieldFilters } from "./filters.js";
import { customFields } from "./kind.js";

import { describeCustomFields } from "./options.js";

export { describeCustomFields } from "./options.js";
export { customFieldColumns, type CustomFieldColumn } from "./columns.js";

export const feature = {
  name: "custom fields",
  kinds: { customFields },
  filters: () => customFieldFilters,
  options: () => describeCustomFields,
} satisfies Feature;
