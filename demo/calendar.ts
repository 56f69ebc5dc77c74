// Demo data for the calendar API: venues, organizers, categories, tags and events loaded by
// `make run`. Dates are relative phrases the API itself parses, so the upcoming events stay
// upcoming whenever the demo is loaded.
import type { Fixture } from "../runtime/fixtures.js";

const venues: Fixture[] = [
  { model: "venues.venue", data: { venue: "Blue Room", address: "12 Harbour Street", city: "Hamburg", country: "Germany", zip: "20457", phone: "+49 40 1234567", website: "https://blueroom.example.org", geo_lat: 53.5438, geo_lng: 9.9661 } },
  { model: "venues.venue", data: { venue: "Town Hall", address: "1 Main Street", city: "Springfield", state: "IL", country: "US", zip: "62701", geo_lat: 39.7990, geo_lng: -89.6440 } },
  { model: "venues.venue", data: { venue: "Online", description: "Streamed live." } },
];

const organizers: Fixture[] = [
  { model: "organizers.organizer", data: { organizer: "Jazz Club Hamburg", email: "info@jazzclub.example.org", website: "https://jazzclub.example.org" } },
  { model: "organizers.organizer", data: { organizer: "City of Springfield", phone: "+1 217 555 0100" } },
];

const terms: Fixture[] = [
  { model: "events.category", data: { name: "Music", description: "Concerts and sessions." } },
  { model: "events.category", data: { name: "Jazz", parent: 1 } },
  { model: "events.category", data: { name: "Community" } },
  { model: "events.tag", data: { name: "Free entry" } },
  { model: "events.tag", data: { name: "Family" } },
];

const events: Fixture[] = [
  { model: "events.event", data: { title: "Jazz Night", description: "<p>Live music.</p>", start_date: "+3 days 20:00", end_date: "+3 days 23:00", timezone: "Europe/Berlin", cost: "€15", venue: 1, organizer: [1], categories: ["music", "jazz"], tags: ["free-entry"], featured: true } },
  { model: "events.event", data: { title: "Town Meeting", description: "Quarterly meeting.", start_date: "+10 days 18:30", end_date: "+10 days 20:00", timezone: "America/Chicago", cost: "0", venue: 2, organizer: [2], categories: ["community"], tags: ["family"] } },
  { model: "events.event", data: { title: "Summer Festival", start_date: "+30 days", end_date: "+32 days", all_day: true, cost: ["0", "20$", "30$"], venue: 2, organizer: [2], categories: ["community", "music"] } },
  { model: "events.event", data: { title: "Webinar: Event Planning", start_date: "+5 days 15:00", end_date: "+5 days 16:00", venue: 3, status: "draft" } },
  { model: "events.event", data: { title: "Last Month's Concert", start_date: "-30 days 20:00", end_date: "-30 days 22:00", venue: 1, organizer: [1], categories: ["music"] } },
];

export const calendarDemo: Fixture[] = [...venues, ...organizers, ...terms, ...events];
