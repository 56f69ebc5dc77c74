import { model, field, ref, choices } from "../../../generator/dsl/index.js";

export const ButtonClass = choices("ButtonClass", [
  ["default", "Default"], ["primary", "Primary"], ["success", "Success"], ["info", "Info"], ["warning", "Warning"], ["danger", "Danger"], ["link", "Link"],
]);

// Nautobot's JobButton: a button on the pages of objects of the chosen types that runs a
// job-button receiver on the object shown (hooks/inventory/extras/job-button.ts serves the run).
export default model("JobButton", {
  app: "extras",
  route: "job-buttons",
  description: "A button that runs a job-button receiver on one object of the chosen types.",
  display: "{name}",
  ordering: ["group_name", "weight", "name"],
  features: ["notes", "changeLogged"],
  hooks: "extras/job-button",
  fields: {
    job: ref.fk("extras.Job", { relatedName: "jobbutton_set", required: true, onDelete: "cascade" }),
    name: field.string({ required: true, unique: true, maxLength: 100 }),
    content_types: field.contentTypes({ feature: "all", required: true, verboseName: "Object types" }),
    // Jinja2 rendered with the object as `obj`; a button rendered empty is not shown.
    text: field.string({ required: true, maxLength: 500 }),
    weight: field.integer({ default: 100, min: 0, max: 32767 }),
    group_name: field.string({ maxLength: 50 }),
    // A plain model field to its serializer: DRF's own ChoiceField.
    button_class: field.choice(ButtonClass, { default: "default", plain: true }),
    confirmation: field.boolean({ default: true }),
  },
  nested: ["name"],
  actions: {
    run: {
      description: "Runs the button's job on one object (Nautobot's `POST /extras/job-button/<pk>/run/`): queues it with `object_pk` and `object_model_name`, as the user asking",
      method: "POST",
      permission: "view",
      status: 201,
      request: {
        type: "object",
        properties: {
          object_pk: { type: "string", description: "The object's id" },
          object_model_name: { type: "string", description: "Its model: `app_label.model` (`dcim.device`)" },
        },
        required: ["object_pk", "object_model_name"],
      },
      response: {
        type: "object",
        properties: { job_result: { $ref: "#/components/schemas/NestedJobResult" } },
        required: ["job_result"],
      },
    },
  },
  filters: {
    q: ["name", "text"],
    exclude: ["created", "last_updated"],
  },
});
