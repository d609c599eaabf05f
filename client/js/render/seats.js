// Seat helpers shared by the waiting room and the table: positions and names.
import { t, TABLES } from "../i18n.js";

export const POSITIONS = ["bottom", "left", "top", "right"];

/** Where `seat` sits on `you`'s screen: bottom (you), left, top, right in play order. */
export function position(seat, you) {
  return POSITIONS[(seat - you + 4) % 4];
}

export function seatName(table, seat) {
  const s = table.seats[seat];
  if (!s || s.kind === "empty" || !s.name) return `${t("seat_names")[seat]}`;
  const shared = table.seats.some((o) => o.seat !== seat && o.name === s.name);
  return shared ? `${s.name} (${t("seat_names")[seat]})` : s.name;
}

/** The name alone, for places that already show the seat's wind beside it. */
export function plainName(table, seat) {
  const s = table.seats[seat];
  return s && s.kind !== "empty" && s.name ? s.name : t("seat_names")[seat];
}

/** The seats in the order the player sees them: self, left, top, right. */
export function seatsFromMe(you) {
  return [0, 1, 2, 3].map((i) => (you + i) % 4);
}

/** The points a moon is worth in this view's game (the core's scoring table says; 26 in an older view). */
export function moonTotal(view) {
  return view.scoring ? view.scoring.moon_total : 26;
}

/** A variant's display name; a variant this client does not know keeps its own id. */
export function variantName(variant) {
  const key = `variant_${variant || "classic"}`;
  return key in TABLES.en ? t(key) : variant;
}

/** The team names of a team game, by team number: North–South (South's team) and East–West. */
export function teamName(view, team) {
  return t(team === view.teams[0] ? "team_ns" : "team_ew");
}

/** Who took a trick: "You take the trick" for your own, else "Ellen takes the trick". */
export function takerText(table, seat) {
  return seat === table.you ? t("trick_won_by_you") : t("trick_won_by", { name: seatName(table, seat) });
}
