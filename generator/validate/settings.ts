// Checks an API's profile settings: each key is one its profile reads, with a value of the
// type it needs. A misspelt PAGINATE_COUNT would otherwise be ignored in silence.
import type { ProfileSettings } from "../../runtime/descriptor.js";

type Check = (v: unknown) => string | null;

const positiveInteger: Check = (v) => (Number.isInteger(v) && (v as number) > 0 ? null : "a positive integer");
const positiveNumber: Check = (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? null : "a positive number");
const boolean: Check = (v) => (typeof v === "boolean" ? null : "true or false");
const stringMap: Check = (v) => (typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string") ? null : "an object of strings");
const stringList: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? null : "a list of strings");
const oneOf = (...values: string[]): Check => (v) => (values.includes(v as string) ? null : `one of ${values.map((x) => `"${x}"`).join(", ")}`);
const timezone: Check = (v) => {
  if (typeof v !== "string") return "an IANA timezone name";
  try {
    new Intl.DateTimeFormat("en", { timeZone: v });
    return null;
  } catch {
    return "an IANA timezone name";
  }
};

const SETTINGS: { [P in keyof ProfileSettings]: { [K in keyof ProfileSettings[P]]-?: Check } } = {
  drf: { PAGINATE_COUNT: positiveInteger, MAX_PAGE_SIZE: positiveInteger, STRICT_FILTERING: boolean, STRICT_WRITE_FIELDS: boolean, EXEMPT_VIEW_PERMISSIONS: stringList, STATUS: stringMap },
  wordpress: { timezone, PER_PAGE: positiveInteger, MAX_PER_PAGE: positiveInteger, GEOFENCE_RADIUS: positiveNumber, GEOFENCE_UNIT: oneOf("miles", "kms") },
};

export function checkSettings(profile: string, settings: unknown, err: (message: string) => void): void {
  if (settings === undefined) return;
  const checks = SETTINGS[profile as keyof ProfileSettings] as Record<string, Check> | undefined;
  if (!checks) return;
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    err("settings must be an object");
    return;
  }
  const known = Object.keys(checks);
  for (const [key, value] of Object.entries(settings)) {
    const check = checks[key];
    if (!check) {
      err(`settings: "${key}" is no setting of the ${profile} profile (known: ${known.join(", ")})`);
      continue;
    }
    const wanted = check(value);
    if (wanted) err(`settings.${key} must be ${wanted}, not ${JSON.stringify(value)}`);
  }
}
