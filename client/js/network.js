// What needs the network, in one list: with none, the page leaves these out and offers what plays without one
// (Play offline, the offline game kept in this browser, the rules, the statistics last seen). docs/offline.md.
export const NEEDS_NETWORK = [
  "play_now", // Play now: a table of the server's
  "open_tables", // the start page's list of open tables
  "join", // Join a table by its code
  "daily", // Today's deal and its board
  "create", // Create table (a table on the server; Play offline makes one in this browser)
  "deal_online", // a /?deal=N link's button that plays it at a table on the server
  "devices", // your player on other devices (codes and sign-outs go through the server)
  "my_games", // My games (the server keeps them)
];

/** Whether the browser says there is no network. */
export function noNetwork() {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** Whether `what` is offered: everything with a network, and only what plays without one otherwise. */
export function offered(what, offline = noNetwork()) {
  return !offline || !NEEDS_NETWORK.includes(what);
}
