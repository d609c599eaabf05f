// The websocket: JSON in and out, and automatic reconnection with growing pauses.
// onStatus(status, closeCode): closeCode is the code of the close that started a reconnect
// (1012: the server is restarting), else undefined; a close with a code in `final` (4001: this device was signed
// out) is not followed by a reconnect: onStatus("closed", code), and open() starts again.
export function createConnection({ url, onOpen, onMessage, onStatus, final = [] }) {
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  let retry = 0;

  function open() {
    clearTimeout(retry);
    closedByUs = false; // open() after stop() starts again
    onStatus(attempt ? "reconnecting" : "connecting");
    const sock = new WebSocket(url);
    ws = sock;
    ws.addEventListener("open", () => {
      attempt = 0;
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
      if (closedByUs) return;
      if (final.includes(event.code)) {
        attempt = 0;
        onStatus("closed", event.code);
        return;
      }
      attempt += 1;
      onStatus("reconnecting", event.code);
      retry = setTimeout(open, Math.min(250 * 2 ** (attempt - 1), 4000));
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
