// The client's state as plain data. Only update.js changes it; render/ reads it.
export function createState(prefs) {
  return {
    prefs,
    conn: "connecting", // connecting | online | reconnecting
    playerToken: null,
    screen: "start", // start | joining | table
    wantedCode: null, // code from /t/CODE or the join form, until joined
    session: null, // {code, seat, seat_token, link} of the table we sit at
    table: null, // the last `table` message
    seq: 0,
    selected: [], // cards chosen for passing
    hint: [], // cards the hint highlights
    hintKey: null, // the moment the hint belongs to
    notice: null, // {text, kind} shown under the table (refusal reasons, errors)
    overlay: null, // rules | stats | options | scores
    stats: null, // stats from the server, or "error"
    received: { handNo: null, until: 0 }, // highlight of the received cards
    trickShow: null, // {trick, until, slide} a finished trick kept visible briefly
    tricksSeen: { handNo: null, count: 0 },
    scoresSeen: 0, // number of hands whose score table the player has already been shown
    readySent: -1, // history length for which `ready` was sent
    copied: false,
  };
}
