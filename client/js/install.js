// Installable: registers the service worker (/sw.js, scope /) that keeps the client's own files,
// so the app can go on a home screen and its start page and rules open offline.
// Where there is no service worker (an old browser, a page not served over https or from this machine) nothing changes.
if ("serviceWorker" in navigator && window.isSecureContext) {
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // not installable here; the app works as before
  });
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
