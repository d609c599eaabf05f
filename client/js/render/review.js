// A hand review: the hard player's verdict on your own decisions in one hand (the pass and every card you played),
// as a list in playing order. In the replay viewer the list is the hand's timeline: each decision opens its step.
import { t, reviewReasonText } from "../i18n.js";
import { esc } from "../html.js";
import { shortName } from "../cards.js";
import { stepRange } from "../replay.js";
import { decimal } from "../format.js";

const MARKS = ["inaccuracy", "mistake", "blunder"];
const PLAIN = ["better_card", "better_pass"]; // reasons that only name the better choice, shown as "better: …"

/** The replay step at which a decision is still to be made (its cards are still in hand). */
export function decisionStep(hand, d) {
  if (d.kind === "pass") return 0;
  let before = 0;
  for (let i = 0; i < d.trick && i < hand.tricks.length; i++) before += hand.tricks[i].cards.length;
  return Math.min(stepRange(hand).first + before + d.position, stepRange(hand).last);
}

/** The cards of a choice (one card, or the cards of a pass), shown short. */
function cardsText(choice) {
  return (Array.isArray(choice) ? choice : [choice]).map(shortName).join(" ");
}

/** The better card(s) and the one(s) chosen of the marked decision at `step`, for highlighting a hand. */
export function highlightAt(hand, review, step) {
  const d = review && review.decisions.find((x) => x.mark && decisionStep(hand, x) === step);
  if (!d) return { better: new Set(), worse: new Set() };
  const list = (x) => (Array.isArray(x) ? x : [x]);
  return { better: new Set(list(d.best)), worse: new Set(list(d.chosen)) };
}

function itemHtml(d, hand, current) {
  const where = d.kind === "pass" ? t("review_pass") : t("review_trick", { n: d.trick + 1 });
  const mark = d.mark
    ? `<span class="rv-mark mark-${d.mark}">${esc(t(`review_${d.mark}`))}</span>`
    : `<span class="rv-mark mark-ok">${esc(t("review_ok"))}</span>`;
  const cost = d.mark ? ` <span class="rv-cost">${esc(t("review_cost", { n: decimal(d.cost, 1) }))}</span>` : "";
  const better = d.mark ? `<span class="rv-better">${esc(t("review_better", { cards: cardsText(d.best) }))}</span>` : "";
  const pattern = d.mark && d.reason && !PLAIN.includes(d.reason.code); // "the better card saves…" repeats the line
  const reason = pattern ? `<span class="rv-reason">${esc(reviewReasonText(d.reason))}</span>` : "";
  const what = `${esc(where)}: ${esc(t("review_you_chose", { cards: cardsText(d.chosen) }))}`;
  const step = hand ? decisionStep(hand, d) : null;
  const head = step === null ? `<span class="rv-what">${what}</span>`
    : `<button type="button" class="link-button rv-what" data-action="replay_step" data-step="${step}"` +
      `${step === current ? ' aria-current="step"' : ""}>${what}</button>`;
  return `<li class="rv-item${d.mark ? " marked" : ""}${step !== null && step === current ? " current" : ""}"` +
    ` data-mark="${d.mark || ""}">${head} ${mark}${cost}${better}${reason}</li>`;
}

/** What to say when a review was refused or failed (`code`: the server's error code). */
export function reviewErrorText(code) {
  const known = { review_limited: "review_limited", review_busy: "review_busy", server_busy: "review_server_busy", offline: "offline_review" };
  return t(known[code] || "review_error");
}

/** The review as a summary and the list of decisions (with `hand`, each opens its replay step). */
export function reviewHtml(review, hand = null, current = null) {
  const marked = review.decisions.filter((d) => MARKS.includes(d.mark)).length;
  const summary = t("review_summary", { n: decimal(review.total_cost, 1) });
  return `<div class="review" data-marked="${marked}"><p class="rv-summary">${esc(summary)}</p>` +
    `<ol class="rv-list">${review.decisions.map((d) => itemHtml(d, hand, current)).join("")}</ol>` +
    `<p class="muted rv-note">${esc(t("review_note"))}</p></div>`;
}

/** The marks on the hand's timeline: one button per marked decision, at its place along the hand's steps. */
export function timelineHtml(review, hand, current) {
  const { last } = stepRange(hand);
  const marks = review.decisions.filter((d) => d.mark).map((d) => {
    const step = decisionStep(hand, d);
    const left = last ? (100 * step) / last : 0;
    const label = `${t(`review_${d.mark}`)}: ${d.kind === "pass" ? t("review_pass") : t("review_trick", { n: d.trick + 1 })}`;
    return `<button type="button" class="rv-dot mark-${d.mark}${step === current ? " current" : ""}" data-style="left:${left.toFixed(1)}%"` +
      ` data-action="replay_step" data-step="${step}" aria-label="${esc(label)}" title="${esc(label)}"></button>`;
  }).join("");
  const at = last ? (100 * current) / last : 0;
  return `<div class="rv-timeline" aria-label="${esc(t("review_timeline"))}"><span class="rv-now" data-style="left:${at.toFixed(1)}%"></span>${marks}</div>`;
}
