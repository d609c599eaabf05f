// The websocket: JSON in and out, and automatic reconnection with growing pauses.
// onStatus(status, closeCode): closeCode is the code of the close that started a reconnect
// (1012: the server is restarting), else undefined; a close with a code in `final` (4001: this device was signed
// out) is not followed by a reconnect: onStatus("closed", code), and open() starts again.
// move(path): the table lives on another node, which the proxy reaches at `path` (the server's `moved`): the
// connection goes there at once; when that connection closes, the next try is the site's own address again.
const FIRST_RETRY_MS = 250; // the first try again after a close; each one after waits twice as long as the one before
const LONGEST_RETRY_MS = 4000; // the longest pause between two tries
const STEADY_MS = 10_000; // a connection open this long was a good one: after it the pauses start short again

export function createConnection({ url, onOpen, onMessage, onStatus, final = [] }) {
  let ws = null;
  let attempt = 0;
  let openedAt = 0;
  let closedByUs = false;
  let retry = 0;
  let direct = null; // the address of the node that holds the table (after `moved`), while that connection lasts

  function open() {
    clearTimeout(retry);
    closedByUs = false; // open() after stop() starts again
    onStatus(attempt ? "reconnecting" : "connecting");
    const sock = new WebSocket(direct || url);
    ws = sock;
    ws.addEventListener("open", () => {
      openedAt = Date.now(); // the pauses start short again only once it has stayed open (see the close)
      onStatus("online");
      onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (sock !== ws) return; // a socket stop() let go of says nothing more
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        console.error("bad message from server", event.data, err);
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (sock !== ws) return; // a socket stop() let go of: its close changes nothing
      ws = null;
      direct = null; // that node may be gone: the site's own address finds where the table lives now
      if (closedByUs) return;
      if (final.includes(event.code)) {
        attempt = 0;
        onStatus("closed", event.code);
        return;
      }
      // a server that takes the connection and drops it at once (busy, a proxy, no network behind the access point)
      // gets growing pauses too, not a try four times a second
      if (openedAt && Date.now() - openedAt >= STEADY_MS) attempt = 0;
      openedAt = 0;
      attempt += 1;
      onStatus("reconnecting", event.code);
      retry = setTimeout(open, Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LONGEST_RETRY_MS));
      // no network: try again the moment it is back (the pauses go on meanwhile: onLine is not always right)
      if (typeof navigator !== "undefined" && navigator.onLine === false) {
        window.addEventListener("online", () => { if (!ws && !closedByUs) open(); }, { once: true });
      }
    });
  }

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  return {
    open,
    send,
    /** Reconnect at once to `path` on the same host (a path of the site, never another host). */
    move(path) {
      if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) return false;
      direct = new URL(path, url).href;
      const old = ws;
      ws = null; // its close says nothing more
      if (old) old.close();
      open();
      return true;
    },
    /** Drop the socket as a network failure would; the client reconnects by itself. */
    drop() {
      if (ws) ws.close();
    },
    get connected() {
      return Boolean(ws && ws.readyState === WebSocket.OPEN);
    },
    stop() {
      closedByUs = true;
      const old = ws;
      ws = null;
      if (old) old.close();
    },
  };
}
