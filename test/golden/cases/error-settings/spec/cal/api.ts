import { api } from "../../../../../../generator/dsl/index.js";

// Another profile's setting, an unknown timezone and a unit the geofence does not know.
export default api({
  name: "cal", title: "Cal", profile: "wordpress", basePath: "/cal/v1/", apps: ["events"], idType: "serial",
  settings: { timezone: "Mars/Olympus", PAGINATE_COUNT: 10, GEOFENCE_UNIT: "furlongs" } as never,
});
