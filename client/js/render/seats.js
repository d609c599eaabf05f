// Seat helpers shared by the waiting room and the table: positions and names.
import { t } from "../i18n.js";

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

export function moonTotal(rules) {
  if (rules.variant === "dutch") return 8 + (rules.queen_value ?? 5) + (rules.jack_of_clubs ?? 2);
  return 26;
}

/** Who took a trick: "You take the trick" for your own, else "Ellen takes the trick". */
export function takerText(table, seat) {
  return seat === table.you ? t("trick_won_by_you") : t("trick_won_by", { name: seatName(table, seat) });
}
