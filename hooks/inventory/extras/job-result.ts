// A job result's `logs`
// route, the entries in their nested form, oldest first, as Nautobot's JobResultViewSet.logs.
import type { ActionEvent } from "../../../runtime/hooks.js";
import { tables } from "../../../generated/inventory/tables.js";

export const actions = {
  async logs({ db, id, read }: ActionEvent): Promise<unknown> {
    const { table, columns } = tables.extras.joblogentry;
    const rows: Array<{ id: string }> = await db(table).where(columns.job_result, id).orderBy([columns.created, "id"]).select("id");
    return read(rows.map((r) => ({ model: "extras.joblogentry", id: r.id })), "nested");
  },
};
