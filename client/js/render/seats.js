// Seat helpers shared by the waiting room and the table: how many seats, where each sits, and names.
import { t, TABLES } from "../i18n.js";

export const POSITIONS = ["bottom", "left", "top", "right"];

/** The number of seats at a table: the view's own count, else the seats the table lists, else four. */
export function seatCount(table) {
  if (table && table.view && table.view.seats) return table.view.seats;
  return table && table.seats && table.seats.length ? table.seats.length : 4;
}

/** How many seats after yours sit along each side: `side` up the left and down the right, `top` along the top. */
export function ringShape(n) {
  const others = n - 1;
  let side = 3;
  if (others <= 2) side = 0;
  else if (others <= 5) side = 1;
  else if (others <= 8) side = 2;
  return { side, top: others - 2 * side };
}

/** How many seats `seat` comes after `you` in play order (0 for yourself; a watcher sees from seat 0). */
export function offsetFrom(seat, you, n = 4) {
  return (((seat - (you ?? 0)) % n) + n) % n;
}

/** Where `seat` sits on `you`'s screen: bottom (you), then in play order up the left, along the top, down the right. */
export function position(seat, you, n = 4) {
  const k = offsetFrom(seat, you, n);
  const { side, top } = ringShape(n);
  if (k === 0) return "bottom";
  if (k <= side) return "left";
  return k <= side + top ? "top" : "right";
}

/** The seats in the order the player sees them: self, then the others in play order (left, top, right). */
export function seatsFromMe(you, n = 4) {
  return Array.from({ length: n }, (_, i) => ((you ?? 0) + i) % n);
}

/** Where a card played from `seat` lies in a trick of n cards, in card widths from the trick's middle. */
export function trickSpot(seat, you, n) {
  const angle = (2 * Math.PI * offsetFrom(seat, you, n)) / n; // clockwise from the bottom
  return { dx: -Math.sin(angle), dy: Math.cos(angle) };
}

/** Whether a table is a big one (six seats or more): its trick lies on two rows of named cards, not on a ring. */
export function bigTable(n) {
  return n >= 6;
}

/** How many cards of a big table's trick lie in its top and its bottom row (yours and the seats beside you). */
export function gridRows(n) {
  const bottom = Math.floor(n / 2);
  return { top: n - bottom, bottom, cols: n - bottom };
}

/**
 * Where the card of `seat` lies in a big table's trick: its row (1 top, 2 bottom) and its first of two half-columns
 * (1-based). The cards go round the table in play order as the seats do: yours in the bottom row, the seats after
 * you to its left, the far seats along the top row from left to right, the seats before you on its right.
 */
export function gridSpot(seat, you, n) {
  const k = offsetFrom(seat, you, n);
  const { top, bottom, cols } = gridRows(n);
  const left = Math.ceil((bottom - 1) / 2); // the seats after yours that lie left of you in the bottom row
  if (k > left && k <= left + top) return { row: 1, col: 1 + (cols - top) + 2 * (k - left - 1) };
  const i = k <= left ? left - k : left + (n - k);
  return { row: 2, col: 1 + (cols - bottom) + 2 * i };
}

/** The name of a chair: its wind at four seats (South, West, North, East), else "Seat 1" to "Seat n". */
export function chairName(n, seat) {
  return n === 4 ? t("seat_names")[seat] : t("seat_n", { n: seat + 1 });
}

/** The chair name of a seat at this table. */
export function chairOf(table, seat) {
  return chairName(seatCount(table), seat);
}

export function seatName(table, seat) {
  const s = table.seats[seat];
  if (!s || s.kind === "empty" || !s.name) return chairOf(table, seat);
  const shared = table.seats.some((o) => o.seat !== seat && o.name === s.name);
  return shared ? `${s.name} (${chairOf(table, seat)})` : s.name;
}

/** The name alone, for places that already show the seat's chair beside it. */
export function plainName(table, seat) {
  const s = table.seats[seat];
  return s && s.kind !== "empty" && s.name ? s.name : chairOf(table, seat);
}

/** The points a moon is worth in this view's game (the core's scoring table says; 26 in an older view). */
export function moonTotal(view) {
  return view.scoring ? view.scoring.moon_total : 26;
}

/** The word for taking every point card under a game's options: "mars" in the Dutch games (as their rules say it),
 * "moon" elsewhere; texts `${word}_mark` and `${word}_by`. */
export function moonWord(options) {
  return options && options.turn_score !== undefined ? "mars" : "moon";
}

// The variants played at other tables than four, by their number of seats (Cancellation Hearts: its default).
const VARIANT_SEATS = { three: 3, three_kitty: 3, five: 5, five_kitty: 5, dutch5: 5, three_jokers: 3, cancellation: 6, extreme: 8 };

/** The number of seats a variant is played with (a `seats` option, where the variant has one, says). */
export function variantSeats(variant, seats = null) {
  return seats || VARIANT_SEATS[variant] || 4;
}

/** A passing option in words; the cycle has its own hands where there is no across (three, five, an odd count). */
export function passingName(variant, passing, seats = null) {
  if (passing !== "cycle") return t(`passing_${passing}`);
  const n = variantSeats(variant, seats);
  if (n === 5) return t("passing_cycle_5");
  return t(n % 2 ? "passing_cycle_3" : "passing_cycle");
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

/** The team of each seat at this table (its view's, else the table's from the server), or null when everyone plays
 * alone: the waiting room and the invitation show the sides before the game's view exists. */
export function teamsOf(table) {
  if (table && table.view && table.view.teams) return table.view.teams;
  return (table && table.teams) || null;
}

/** Whether this table's game takes claims (the server says so: one deck, no jokers). */
export function claimsTaken(table) {
  return Boolean(table && table.claims) && takes(table, "claim");
}

/**
 * Whether the table takes message `type` from this page: the server lists what each table takes (`table.commands`:
 * no host command at a Play now table, only what it plays at the offline table), and a button is drawn only then.
 */
export function takes(table, type) {
  return Boolean(table) && Array.isArray(table.commands) && table.commands.includes(type);
}

/** The seats of each side of a team game, South's side first: [[0, 2], [1, 3]]. */
export function sidesOf(teams) {
  const order = [...new Set(teams)];
  return order.map((team) => teams.map((x, seat) => (x === team ? seat : -1)).filter((seat) => seat >= 0));
}

/** Who took a trick: "You take the trick" for your own, else "Ellen takes the trick"; with the `waited` cards of undecided tricks. */
export function takerText(table, seat, waited = 0) {
  if (waited) {
    return seat === table.you ? t("trick_won_pending_you", { n: waited }) : t("trick_won_pending", { name: seatName(table, seat), n: waited });
  }
  return seat === table.you ? t("trick_won_by_you") : t("trick_won_by", { name: seatName(table, seat) });
}
