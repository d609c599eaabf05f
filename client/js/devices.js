// Your player on every device: the device messages' state changes, and a plain label for this device.

/** A short, plain name of this device for the player's list of devices ("Android · Chrome"). */
export function deviceLabel(ua = navigator.userAgent) {
  const platform = [["Android", /Android/], ["iPhone", /iPhone/], ["iPad", /iPad/], ["Windows", /Windows/],
    ["Mac", /Macintosh/], ["Linux", /Linux/]].find(([, re]) => re.test(ua));
  const browser = [["Firefox", /Firefox\//], ["Edge", /Edg\//], ["Chrome", /Chrom(e|ium)\//], ["Safari", /Safari\//]]
    .find(([, re]) => re.test(ua));
  return [platform && platform[0], browser && browser[0]].filter(Boolean).join(" · ").slice(0, 40) || "Browser";
}

/** The device code typed or linked (/?device=K7QX-PM3A), as the server takes it, or null. */
export function cleanCode(text) {
  const code = String(text || "").replace(/[\s-]/g, "").toUpperCase();
  return /^[A-Z0-9]{8}$/.test(code) ? code : null;
}
