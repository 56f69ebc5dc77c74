import { api } from "../../generator/dsl/index.js";

export default api({
  name: "calendar",
  title: "Armature event calendar API",
  description: "Calendar events with their venues, organizers, categories and tags, served WordPress-style.",
  profile: "wordpress",
  basePath: "/calendar/events/v1/",
  apps: ["events", "venues", "organizers", "auth"],
  idType: "serial",
  appPasswords: "auth.ApplicationPassword",
  settings: {
    /** Site timezone: wall times without a timezone are read in it. */
    timezone: "UTC",
    PER_PAGE: 10,
    MAX_PER_PAGE: 50,
    /** Geolocation fence around geoloc_lat/geoloc_lng, in GEOFENCE_UNIT. */
    GEOFENCE_RADIUS: 25,
    GEOFENCE_UNIT: "miles",
  },
});
