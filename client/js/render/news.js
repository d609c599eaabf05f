// News for screen readers beside the trick (a polite live region): each card played, who took
// the trick (or that no one did) and the kitty, whose turn it is. Lines are appended, never redrawn, so each is read out once.
import { t, language } from "../i18n.js";
import { cardName } from "../cards.js";
import { seatName, takerText } from "./seats.js";

const KEEP = 12; // lines kept in the region (older ones have been read)

function newsText(table, item) {
  if (item.kind === "play") {
    const line = t("card_played", { name: seatName(table, item.seat), card: cardName(item.card) });
    return item.cancelled ? `${line}, ${t("card_cancelled")}` : line;
  }
  if (item.kind === "trick") return takerText(table, item.seat, item.waited || 0);
  if (item.kind === "undecided") return t("trick_undecided");
  if (item.kind === "claim") return item.seat === table.you ? t("claim_you") : t("claim_other", { name: seatName(table, item.seat) });
  if (item.kind === "kitty") return item.seat === table.you ? t("kitty_taken_you") : t("kitty_taken_other", { name: seatName(table, item.seat) });
  return item.seat === table.you ? t("your_turn") : t("turn_of", { name: seatName(table, item.seat) });
}

export function writeNews(el, table, said) {
  const told = Number(el.dataset.told || 0);
  if (el.dataset.lang && el.dataset.lang !== language()) reword(el, table, said);
  el.dataset.lang = language();
  for (const item of said) {
    if (item.id <= told) continue;
    const line = el.ownerDocument.createElement("p");
    line.dataset.id = String(item.id);
    line.textContent = newsText(table, item);
    el.append(line);
  }
  if (said.length) el.dataset.told = String(Math.max(told, said[said.length - 1].id));
  while (el.childElementCount > KEEP) el.firstElementChild.remove();
}

/**
 * After a language switch, the lines already in the region say the same in the new language (a screen reader that
 * reads the region back hears one language); the region only announces additions, so nothing is read out twice.
 */
function reword(el, table, said) {
  const items = new Map(said.map((item) => [String(item.id), item]));
  for (const line of [...el.children]) {
    const item = items.get(line.dataset.id);
    if (item) line.textContent = newsText(table, item);
    else line.remove(); // no longer known: better gone than in the old language
  }
}
