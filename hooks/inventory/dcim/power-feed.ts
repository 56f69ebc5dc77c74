// Nautobot's PowerFeed.clean and save: a feed's rack is in its panel's site; an AC feed has
// no negative voltage, and none has 0; the power it makes available (volts × amps × the
// utilisation allowed, × √3 for three-phase) is kept with it. A feed is a cable end.
import { readRow, Refusal, type SaveEvent } from "../../../runtime/hooks.js";

export { actions, beforeDelete } from "./cable-end.js";
import { tables } from "../../../generated/inventory/tables.js";
import type { DcimPowerFeed, DcimPowerPanel, DcimRack, DcimSite } from "../../../generated/inventory/rows.js";

export async function beforeSave({ db, values, after: f }: SaveEvent<DcimPowerFeed>): Promise<void> {
  const voltage = Number(f.voltage ?? 120);
  if (voltage === 0) throw new Refusal({ voltage: "This value may not be 0." });
  if (f.rack) {
    const rack = await readRow<DcimRack>(db, tables.dcim.rack, f.rack);
    const panel = await readRow<DcimPowerPanel>(db, tables.dcim.powerpanel, f.power_panel);
    if (rack && panel && rack.site !== panel.site) {
      const [rackSite, panelSite] = await Promise.all([rack.site, panel.site].map((s) => readRow<DcimSite>(db, tables.dcim.site, s)));
      throw new Refusal({ non_field_errors: `Rack ${rack.name} (${rackSite?.name}) and power panel ${panel.name} (${panelSite?.name}) are in different sites` });
    }
  }
  if (voltage < 0 && (f.supply ?? "ac") === "ac") throw new Refusal({ voltage: "Voltage cannot be negative for AC supply" });
  const kva = Math.abs(voltage) * Number(f.amperage ?? 20) * (Number(f.max_utilization ?? 80) / 100);
  values.available_power = Math.round(f.phase === "three-phase" ? kva * 1.732 : kva);
}
