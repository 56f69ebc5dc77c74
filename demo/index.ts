// Demo fixtures of every API, by API name.
import type { Fixture } from "../runtime/fixtures.js";
import { inventoryDemo, inventoryLogins } from "./inventory.js";
import { calendarDemo } from "./calendar.js";

/** The demo data's logins, beyond the administrator's, as `run` prints them. */
export const demoLogins: string[] = inventoryLogins;

export const demo: Record<string, Fixture[]> = {
  inventory: inventoryDemo,
  calendar: calendarDemo,
};
