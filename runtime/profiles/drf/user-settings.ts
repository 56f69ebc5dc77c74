// Each user's own settings (Nautobot's UserConfigViewSet at `users/config/`): a JSON object on
// the user's row, which only that user reads, and into which a PATCH merges its body.
import { isPlainObject } from "../../kinds/types.js";

type Json = Record<string, unknown>;

/**
 * Nautobot's `deepmerge`: `update`'s keys over `current`'s, objects on both sides merged key by
 * key, anything else (an empty object included) replacing what was there.
 */
export function deepmerge(current: Json, update: Json): Json {
  const merged: Json = { ...current };
  for (const [key, value] of Object.entries(update)) {
    const before = current[key];
    merged[key] = isPlainObject(before) && isPlainObject(value) && Object.keys(value).length ? deepmerge(before, value) : value;
  }
  return merged;
}
