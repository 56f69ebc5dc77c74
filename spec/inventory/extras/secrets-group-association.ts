import { model, ref, field, choices } from "../../../generator/dsl/index.js";

export const AccessType = choices("SecretsGroupAccessType", [
  ["Generic", "Generic"], ["Console", "Console"], ["gNMI", "gNMI"], ["HTTP(S)", "HTTP(S)"], ["NETCONF", "NETCONF"],
  ["REST", "REST"], ["RESTCONF", "RESTCONF"], ["SNMP", "SNMP"], ["SSH", "SSH"],
]);

export const SecretType = choices("SecretsGroupSecretType", [
  ["key", "Key"], ["password", "Password"], ["secret", "Secret"], ["token", "Token"], ["username", "Username"],
]);

export default model("SecretsGroupAssociation", {
  app: "extras",
  route: "secrets-groups-associations",
  description: "One secret of a secrets group, for an access type and a secret type.",
  display: "{group.name}: {access_type} {secret_type}: {secret.name}",
  ordering: ["group", "access_type", "secret_type"],
  fields: {
    group: ref.fk("extras.SecretsGroup", { relatedName: "secretsgroupassociation_set", required: true, onDelete: "cascade" }),
    access_type: field.choice(AccessType, { required: true }),
    secret_type: field.choice(SecretType, { required: true }),
    secret: ref.fk("extras.Secret", { relatedName: "secretsgroupassociation_set", required: true, onDelete: "cascade" }),
  },
  uniqueTogether: [["group", "access_type", "secret_type"]],
  nested: ["access_type", "secret_type", "secret"],
});
