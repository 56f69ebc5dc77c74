# The calendar API as WordPress clients call it, with plain requests: term archives with
# hide_empty=0 and slugs in include, events filtered by term slugs and yes/no flags, an event
# written as JSON (terms by slug and name) and as a form, changed, read, missing, trashed and
# deleted. Run it through a validating proxy to check the calendar's OpenAPI document.
import os
import requests

base = f"{os.environ['CALENDAR_URL']}/wp-json/calendar/events/v1"
s = requests.Session()
s.headers["Authorization"] = f"Token {os.environ['NAUTOBOT_TOKEN']}"

print("categories:", [c["slug"] for c in s.get(f"{base}/categories", params={"hide_empty": 0}).json()["categories"]])
print("tags:", s.get(f"{base}/tags", params={"hide_empty": "false", "orderby": "name", "order": "desc"}).json()["total"])
print("by slug:", s.get(f"{base}/categories", params={"include": "music,jazz", "hide_empty": "0"}).json()["total"])
print("events:", s.get(f"{base}/events", params={"categories": "music", "tags": "free-entry,family"}).json()["total"])
print("featured:", s.get(f"{base}/events", params={"featured": "yes", "per_page": 5}).json()["total"])

made = s.post(f"{base}/events", json={
    "title": "Contract night", "start_date": "2031-03-01 19:00", "end_date": "2031-03-01 22:00",
    "categories": ["music", "jazz"], "tags": ["family", "contract-tag"], "venue": 1, "all_day": "0", "featured": "yes",
}).json()
print("created:", made["id"], [t["slug"] for t in made["tags"]], made["featured"])
form = s.post(f"{base}/events", data={"title": "Form night", "start_date": "2031-03-02 19:00", "end_date": "2031-03-02 21:00", "sticky": "1", "categories": "community"}).json()
print("form:", form["id"], form["sticky"], [c["slug"] for c in form["categories"]])
print("patched:", s.patch(f"{base}/events/{made['id']}", json={"show_map": "off", "cost": 15}).json()["cost"])
print("read:", s.get(f"{base}/events/{made['id']}").json()["title"])
print("missing:", s.get(f"{base}/events/999999").status_code)
print("bad page:", s.get(f"{base}/events", params={"page": "first"}).status_code)
print("trashed:", s.delete(f"{base}/events/{form['id']}").json()["status"])
print("deleted:", s.delete(f"{base}/events/{made['id']}", params={"force": "true"}).status_code)
s.delete(f"{base}/events/{form['id']}", params={"force": "1"})
tag = s.get(f"{base}/tags", params={"slug": "contract-tag", "hide_empty": "no"}).json()["tags"][0]
print("tag gone:", s.delete(f"{base}/tags/{tag['id']}").status_code)
