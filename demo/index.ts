// Demo fixtures of every API, by API name.
import type { Fixture } from "../runtime/fixtures.js";
import { inventoryDemo } from "./inventory.js";
import { calendarDemo } from "./calendar.js";

export const demo: Record<string, Fixture[]> = {
  inventory: inventoryDemo,
  calendar: calendarDemo,
};
