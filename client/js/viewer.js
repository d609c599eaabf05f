// The replay viewer's address: a replay link /r/KEY opens it (its steps are intents in update.js).

/** The share key of a replay link /r/KEY, or null. */
export function shareInPath(path = location.pathname) {
  const m = path.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
  return m ? m[1] : null;
}
