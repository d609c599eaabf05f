// Compact changes: an `update` from the server folds into the previous `table` message (server/table/changes.py).

/** Return the table message that `update` makes of `table` (the previous one); neither is changed. */
export function foldUpdate(table, update) {
  if (!table) throw new Error("an update came before any table message");
  const next = { ...table, ...(update.set || {}), type: "table", events: update.events || [], resumed: null };
  if (update.view) next.view = { ...table.view, ...update.view };
  return next;
}
