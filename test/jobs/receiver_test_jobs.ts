// Receivers the end-to-end tests run (test/e2e/job-hooks.test.ts, job-buttons.test.ts,
// jobs time limits): a job-hook receiver that logs what it was given and writes a tag (whose
// creation must run no hook), a job-button receiver that logs its object, and jobs that
// outlive their time limits.
import { job, jobButtonReceiver, jobHookReceiver } from "../../runtime/features/jobs/define.js";

export const grouping = "Receiver tests";

export const RecordChange = jobHookReceiver({
  name: "Record change",
  hasSensitiveVariables: false,
  async receiveJobHook(change, action, changed, ctx) {
    await ctx.log_info(`${action} ${String(change.changed_object_type)} ${String(change.changed_object_id)} ${changed ? String(changed.display) : "gone"}`);
    await ctx.create("extras.tag", { name: `hooked-${String(change.id)}`, slug: `hooked-${String(change.id)}`, content_types: ["dcim.site"] });
    return `${action} ${String(change.changed_object_id)}`;
  },
});

export const PressButton = jobButtonReceiver({
  name: "Press button",
  hasSensitiveVariables: false,
  async receiveJobButton(obj, ctx) {
    await ctx.log_success(obj, `pressed by ${ctx.user.username}`);
    return String(obj.id);
  },
});

/** Writes a tag, then waits far beyond its hard time limit, checking nothing. */
export const Overrun = job({
  name: "Overrun",
  hasSensitiveVariables: false,
  timeLimit: 1,
  async run(_data, ctx) {
    await ctx.create("extras.tag", { name: `overrun-${ctx.resultId}`, slug: `overrun-${ctx.resultId}`, content_types: ["dcim.site"] });
    await new Promise((resolve) => setTimeout(resolve, 600_000).unref());
    return "not reached";
  },
});

/** Logs until its soft time limit stops it, then ends early, as a Celery task catching SoftTimeLimitExceeded may. */
export const SoftStop = job({
  name: "Soft stop",
  hasSensitiveVariables: false,
  softTimeLimit: 1,
  timeLimit: 300,
  async run(_data, ctx) {
    for (;;) {
      try {
        await ctx.log_debug("working");
      } catch (err) {
        if (!(err instanceof Error) || err.name !== "SoftTimeLimitExceeded") throw err;
        await ctx.log_warning(`stopping early: ${err.message}`);
        return "stopped early";
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  },
});
