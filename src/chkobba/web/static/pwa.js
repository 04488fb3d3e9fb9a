// Installs the service worker (/sw.js): the pages, scripts and card images kept on the
// phone, so that a reload or a network blip keeps the page on screen. Registered once
// the page has loaded, so that it never delays the first drawing.
if ("serviceWorker" in navigator) {
  // A page already served by a worker, which a new release's worker then takes over,
  // reloads once: its shell came from the server but its scripts from the old copies.
  const updating = Boolean(navigator.serviceWorker.controller);
  let reloaded = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!updating || reloaded) return;
    reloaded = true;
    location.reload();
  });
  const register = () => {
    navigator.serviceWorker.register("/sw.js").then(
      () => document.documentElement.setAttribute("data-sw", "registered"),
      (err) => console.warn("no service worker:", err),
    );
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
