# pynautobot 1.5.5 against jobs: the job list in both API versions (1.2: job classes by class
# path; 1.3: job records), a job enabled through save(), its variables, a run refused for bad
# data, runs through both versions' routes (`jobs.run(job_id=…)` and a 1.2 job class's
# `run()`), the results polled to their end, their logs read through `job_logs`, and the
# results found by job. The demo data set's devices without a primary IP are what the data
# quality check finds; the onboarding job adds two devices in a dry run, which leaves nothing.
import json
import os
import time

import pynautobot

url, token = os.environ["NAUTOBOT_URL"], os.environ["NAUTOBOT_TOKEN"]
nb = pynautobot.api(url, token=token)
nb13 = pynautobot.api(url, token=token, api_version="1.3")


def finished(result_id):
    """The job result once a worker ended it (the server's own worker runs it)."""
    for _ in range(600):
        result = nb13.extras.job_results.get(result_id)
        if result.status.value in ("completed", "errored", "failed"):
            return result
        time.sleep(0.2)
    raise RuntimeError(f"job result {result_id} did not end")


classes = nb.extras.jobs.all()
print("1.2 job classes:", sorted(c.id for c in classes))
records = {j.job_class_name: j for j in nb13.extras.jobs.all()}
print("1.3 job records:", sorted(f"{j.grouping} / {j.name}" for j in records.values()))

check = records["DevicesWithoutPrimaryIp"]
onboarding = records["DeviceOnboarding"]
for job in (check, onboarding):
    job.enabled = True
    job.save()
print("enabled:", [nb13.extras.jobs.get(j.id).enabled for j in (check, onboarding)])

variables = nb13.http_session.get(f"{url}/api/extras/jobs/{onboarding.id}/variables/", headers={"Authorization": f"Token {token}"}).json()
print("onboarding variables:", [(v["name"], v["type"], v["required"]) for v in variables])

try:
    nb13.extras.jobs.run(job_id=onboarding.id, data={"devices": "[]", "colour": "red"})
except pynautobot.RequestError as e:
    print("unknown variable:", e.error)

run = nb13.extras.jobs.run(job_id=check.id, data={}, commit=False)
print("1.3 run:", run.schedule, run.job_result.status.value)
result = finished(run.job_result.id)
print("data quality:", result.status.value, result.data["output"].strip())
lines = nb13.extras.job_logs.filter(job_result_id=result.id)
print("its log:", [(line.log_level, line.log_object, line.message) for line in lines][:3])

legacy = next(c for c in classes if c.id == "local/device_onboarding/DeviceOnboarding")
devices = [
    {"name": "pyn-onboard-1", "device_type": "dcs-7050sx3", "device_role": "leaf-switch", "interface": "mgmt0", "primary_ip4": "192.0.2.51/24"},
    {"name": "pyn-onboard-2", "device_type": "dcs-7050sx3", "device_role": "leaf-switch"},
]
site = nb.dcim.sites.all()[0]
answer = legacy.run(data={"devices": json.dumps(devices), "site": site.id}, commit=False)
print("1.2 run:", answer.id, answer.result.status.value)
dry = finished(answer.result.id)
print("onboarding dry run:", dry.status.value, [line.message for line in nb.extras.job_logs.filter(job_result_id=dry.id)])
print("devices left behind:", nb.dcim.devices.count(name=["pyn-onboard-1", "pyn-onboard-2"]))

print("results of the check:", len(nb13.extras.job_results.filter(job_model=check.slug)))
for job in (check, onboarding):
    nb13.extras.jobs.get(job.id).update({"enabled": False})
print("disabled again:", [nb13.extras.jobs.get(j.id).enabled for j in (check, onboarding)])
