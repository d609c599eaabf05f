import { createChat } from "./chat.js";

// The client's state as plain data. Only update.js (and its sub-updates in update/) changes it: for server messages,
// intents, the HTTP answers (stats, board, games, replays) and the page's own facts (the connection, the offline
// engine); render/ only reads it. A text shown to the person is kept as words ({key, params}, {server}, ...: render/say.js).
export function createState(prefs) {
  return {
    prefs,
    conn: "connecting", // connecting | online | reconnecting | closed
    greeted: false, // the server welcomed this connection: intents go straight to it
    pending: null, // a create, join, resume, watch or Play now waiting for the connection
    playerToken: null,
    screen: "start", // start | joining | table (the replay viewer, when open, covers any of them)
    wantedCode: null, // code from /t/CODE or the join form, until joined
    session: null, // {code, seat, seat_token, link} of the table we sit at
    table: null, // the last `table` message
    seq: 0,
    selected: [], // cards chosen for passing, as the keys of their copies ("AS#0"; see cards.js)
    focusCard: null, // the key of the hand's card that has the keyboard focus
    keysUsed: false, // the keyboard came to the hand once (its focus ring showed): the status says what the keys do
    hint: [], // cards the hint highlights
    hintKey: null, // the moment the hint belongs to
    review: null, // {game, table, hand_no, status: loading | ok | error, data, code}: your review of a hand of this table's game
    gameNo: 0, // counts the games this page has seen (a new table, a new game, a start-over): a review belongs to one
    notice: null, // {words, kind} shown under the table (refusal reasons, errors)
    overlay: null, // rules | stats | options | scores | last_trick | restart | games
    rulesAt: null, // the variant whose rules section the rules dialog opened at (from the new-table form)
    rulesAll: false, // at a table, the rules show every game (else its own game first, with its settings)
    stats: null, // stats from the server, or "error"
    inFlight: false, // a move was sent and the server has not answered yet: taps wait
    playedAt: 0, // when we last sent a card (a tap right after it is a double tap)
    scoresAt: 0, // the score table that opened by itself waits until then (the last trick slides to its taker)
    said: [], // news for screen readers: [{id, kind: play | trick | kitty | turn, seat, card}], the last few
    trickShow: null, // {trick, until, slide} a finished trick kept visible briefly
    tricksSeen: { handNo: null, count: 0 },
    scoresSeen: 0, // number of hands whose score table the player has already been shown
    readySent: -1, // history length for which `ready` was sent
    copied: false, // the invitation link was just copied
    deviceCopied: false, // the link of a device code was just copied
    shareCopied: false, // the replay's share link was just copied
    moreSteps: false, // after game over, the host's other choices (a new game at this table, starting over) are unfolded
    restarting: false, // the server closed with 1012 and we have not been welcomed back yet
    dealPrefill: "", // the deal number from /?deal=N, put in the new-table form
    dealLink: "", // the same number, offered on top of the start page until a table is joined
    fieldError: null, // {field, words}: a refusal the server tied to one field of the new-table form
    daily: null, // {date, status: loading | ok | error, data}: today's board from /api/daily/{date}
    games: null, // "loading" | "error" | [games] from /api/games
    invite: null, // {code, status: loading | ok | not_found | error, data}: the link's table from /api/tables/{code}
    comeback: null, // {code, seat}: a stored seat the server still holds for us ("Back to your table")
    watching: null, // the code of the table we watch without a seat
    chat: createChat(), // table chat: {code, lines, open, unread, error, muted} (see chat.js)
    myName: null, // the name the server welcomed us with
    replay: null, // the replay viewer: {status: loading | ok | not_found | error, data, hand, pos, you}
    // the offline game (offline/): the engine's status, whether we sit at the offline table, the game kept in
    // IndexedDB (the start page offers to continue it), the worker's facts (its shared/ hash, boot time), how far its
    // start is ({step, loaded, total}), whether its files are kept on this device (null: not known yet, false,
    // "keeping", true) and whether this page asked for them
    offline: { status: "idle", playing: false, saved: null, facts: null, progress: null, kept: null, asked: false },
    // your player on other devices: the one-time code shown (device_code message), the devices that hold this
    // player, the name a code from another device brought here, a code from the link waiting for the connection
    // and the device messages waiting for the connection (the start page need not be connected)
    device: { code: null, list: null, joined: null, linked: null, error: null, queue: [] },
    signedOut: null, // the player's name when another device signed this one out (it greets nobody till it starts fresh)
    offlineStats: null, // this device's finished offline games' figures, "loading", "error", or null (none)
    openTables: null, // the start page's list of open tables: {status: loading | ok | error, tables (the last list), at}
    board: null, // the leaderboard shown: {family, period, status: loading | ok | error, data}
    // the dialog about another person at the table: their seat, what is being done (null: the choice; report or
    // remove), the reason typed, whether it was sent, and the server's refusal
    moderation: null,
    // Play now: a press whose table has not arrived yet ({wait, at}), and Queue again's press waiting for `left`
    playNow: { asked: null, again: null },
    fullWords: null, // the table_full refusal of a join that now tries to watch instead
    clockSkew: 0, // the server's clock minus this device's (ms), for the Play now countdown (learnt at a Play now table)
    // pace: joined as host, the next table message says whether the host's pace must go to the table (`asked`); the
    // decision whose only legal card was played by itself (`decided`), and which wait for that card is the latest (`due`)
    pace: { asked: false, decided: null, due: 0 },
    // how often the leaderboard and the open tables were asked for: only the latest question's answer is shown
    asked: { board: 0, openTables: 0 },
  };
}
