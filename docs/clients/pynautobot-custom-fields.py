# pynautobot 1.5.5 against custom fields: reads the demo's fields and their values on devices
# and sites, defines a field with choices, sets a value by changing a record's custom_fields
# and calling .save() (pynautobot sends only what changed), filters by it, sees a bad value
# refused, and deletes what it made (the values go with the definition).
import os
import pynautobot

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")

for cf in nb.extras.custom_fields.all():
    print("field", cf.name, cf.type.value, cf.content_types, "default", cf.default, "filter", cf.filter_logic.value)
print("tier choices", [c.value for c in nb.extras.custom_field_choices.filter(field=nb.extras.custom_fields.get(name="site_tier").id)])

device = nb.dcim.devices.get(name="ber1-edge1")
print("device custom_fields", device.custom_fields)
device.custom_fields["support_contract"] = "premium"
print("save", device.save(), nb.dcim.devices.get(device.id).custom_fields)
print("premium devices", [d.name for d in nb.dcim.devices.filter(cf_support_contract="prem")])

site = nb.dcim.sites.get(slug="berlin-dc1")
site.custom_fields["site_tier"] = "tier-1"
print("save", site.save(), nb.dcim.sites.get(site.id).custom_fields)
print("tier-1 sites", [s.name for s in nb.dcim.sites.filter(cf_site_tier="tier-1")])

rack_units = nb.extras.custom_fields.create(name="power_budget_w", type="integer", content_types=["dcim.rack"], validation_minimum=0, validation_maximum=20000, default=4000)
rack = nb.dcim.racks.get(name="A01")
print("backfilled rack", rack.custom_fields)
rack.custom_fields["power_budget_w"] = 99999
try:
    rack.save()
except pynautobot.RequestError as e:
    print("refused", e.error)
print("racks over 3000 W", [r.name for r in nb.dcim.racks.filter(cf_power_budget_w__gt=3000)])

device.custom_fields["support_contract"] = "standard"
device.save()
site.custom_fields["site_tier"] = None
site.save()
print("delete", rack_units.delete(), nb.dcim.racks.get(rack.id).custom_fields)
