"""pynautobot 1.5, unmodified, against the BGP models app (PLUGINS=bgp): `nb.plugins.bgp...`.

Lists, creates, filters, changes and deletes the app's objects through pynautobot's plugin
endpoints, as its users script them, and reads `installed_plugins()`. The server must enable
the app. Exits non-zero on the first surprise.
"""
import os
import sys

import pynautobot
from pynautobot.core.query import RequestError

nb = pynautobot.api(os.environ["NAUTOBOT_URL"], token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")
asn = int(os.environ.get("BGP_ASN", "65001"))


def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        sys.exit(1)


installed = nb.plugins.installed_plugins()
check(f"installed_plugins() names the app: {installed}", [p["package"] for p in installed] == ["nautobot_bgp_models"])
before = len(nb.plugins.bgp.autonomous_systems.all())
made = nb.plugins.bgp.autonomous_systems.create(asn=asn, status="active", description="made by pynautobot")
check("autonomous_systems.create() gives the record", made.asn == asn and str(made.status) == "Active")
check("autonomous_systems.all() lists it", len(nb.plugins.bgp.autonomous_systems.all()) == before + 1)
check("autonomous_systems.get(asn=…) finds it", nb.plugins.bgp.autonomous_systems.get(asn=asn).id == made.id)
check("filter(status=…) selects by status", made.id in [a.id for a in nb.plugins.bgp.autonomous_systems.filter(status="active")])
made.status = "planned"
check("save() of a change", made.save())
check("the change is there", nb.plugins.bgp.autonomous_systems.get(made.id).status.value == "planned")
try:
    nb.plugins.bgp.autonomous_systems.create(asn=asn, status="active")
    check("a duplicate ASN is refused", False)
except RequestError as err:
    check(f"a duplicate ASN is refused: {err.error}", err.req.status_code == 400 and "asn" in err.error)
role = nb.plugins.bgp.peering_roles.create(name="Transit", color="ff0000")
check("peering_roles.create() makes its slug", role.slug == "transit")
peering = nb.plugins.bgp.peerings.create(status="active")
check("peerings.create() with a status", peering.status.value == "active")
check("count() of the app's endpoints", nb.plugins.bgp.peerings.count() >= 1)
check("delete() of each", all(x.delete() for x in (peering, role, made)))
check("deleted is gone", nb.plugins.bgp.autonomous_systems.get(asn=asn) is None)
