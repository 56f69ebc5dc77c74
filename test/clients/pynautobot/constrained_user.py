"""pynautobot 1.5, unmodified, as a user whose object permissions are constrained.

An administrator (the suites' token) sets up three sites, a user and a permission that lets
the user view and change sites whose slug starts with "perm-a" and create none; the user then
works through pynautobot with a token of their own. The administrator then reads what that
left in the change log, gives the user a group and sets up a webhook, as pynautobot's users
do. Exits non-zero on the first surprise.
"""
import os
import sys

import pynautobot
import requests
from pynautobot.core.query import RequestError

url = os.environ["NAUTOBOT_URL"]
admin = pynautobot.api(url, token=os.environ["NAUTOBOT_TOKEN"], api_version="1.3")

active = "active"
sites = {name: admin.dcim.sites.create(name=name, slug=name, status=active) for name in ("perm-a1", "perm-a2", "perm-b1")}
user = admin.users.users.create(username="constrained", password="constrained-password")
admin.users.permissions.create(
    name="sites perm-a*", object_types=["dcim.site"], actions=["view", "change"], users=[user.id],
    constraints={"slug__startswith": "perm-a"},
)
admin.users.permissions.create(
    name="own tokens", object_types=["users.token"], actions=["view", "add"], users=[user.id], constraints={"user": "$user"},
)
# Token provisioning with the user's password, as pynautobot's users would script it.
key = requests.post(f"{url}/api/users/tokens/", auth=("constrained", "constrained-password"), headers={"Accept": "application/json"}).json()["key"]
nb = pynautobot.api(url, token=key, api_version="1.3")


def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        sys.exit(1)


def refused(call, status):
    try:
        call()
    except RequestError as err:
        return err.req.status_code == status
    return False


seen = sorted(s.slug for s in nb.dcim.sites.all())
check(f"all() shows exactly the permitted sites: {seen}", seen == ["perm-a1", "perm-a2"])
check("filter() inside the constraint", [s.slug for s in nb.dcim.sites.filter(slug="perm-a1")] == ["perm-a1"])
check("filter() outside the constraint finds nothing", list(nb.dcim.sites.filter(slug="perm-b1")) == [])
check("get() of a permitted site", nb.dcim.sites.get(sites["perm-a1"].id).slug == "perm-a1")
check("get() of another site is None (404)", nb.dcim.sites.get(sites["perm-b1"].id) is None)
check("count() counts what is permitted", nb.dcim.sites.count() == 2)

site = nb.dcim.sites.get(sites["perm-a2"].id)
site.description = "changed by the constrained user"
check("save() of a permitted change", site.save())
check("the change is there", admin.dcim.sites.get(sites["perm-a2"].id).description == "changed by the constrained user")
site.slug = "perm-b2"
check("save() that would leave the constraint is 403", refused(site.save, 403))
check("... and changed nothing", admin.dcim.sites.get(sites["perm-a2"].id).slug == "perm-a2")
check("create() without add permission is 403", refused(lambda: nb.dcim.sites.create(name="perm-a3", slug="perm-a3", status=active), 403))
check("delete() without delete permission is 403", refused(lambda: nb.dcim.sites.get(sites["perm-a1"].id).delete(), 403))
check("a model without any permission is 403", refused(lambda: list(nb.dcim.regions.all()), 403))
check("the user's own token is listed", [t.id for t in nb.users.tokens.all()] != [])

# The administrator's side: the change log, groups (integer ids) and webhooks.
changes = list(admin.extras.object_changes.filter(changed_object_id=sites["perm-a2"].id))
check("the change log shows the site's create and the user's update",
      sorted((c.action.value, c.user_name) for c in changes) == [("create", "admin"), ("update", "constrained")])
check("object changes are read only (405)", refused(lambda: admin.extras.object_changes.create(action="create"), 405))
group = admin.users.groups.create(name="constrained group")
check(f"a group has an integer id: {group.id!r}", isinstance(group.id, int))
member = admin.users.users.get(user.id)
member.groups = [group.id]
check("a user's groups are saved by id", member.save())
check("... and read back nested", [g.name for g in admin.users.users.get(user.id).groups] == ["constrained group"])
check("users filter by group", [u.username for u in admin.users.users.filter(group_id=group.id)] == ["constrained"])
hook = admin.extras.webhooks.create(name="sites to nowhere", content_types=["dcim.site"], type_create=True, payload_url="http://127.0.0.1:9/hook")
check("a webhook is made and read back", admin.extras.webhooks.get(hook.id).payload_url == "http://127.0.0.1:9/hook")
check("a conflicting webhook is refused (400)", refused(lambda: admin.extras.webhooks.create(
    name="sites again", content_types=["dcim.site"], type_create=True, payload_url="http://127.0.0.1:9/hook"), 400))
print("constrained user: all checks passed")
