// Small sounds made in the browser (no audio files): a tick for a played card, a chime for your turn.
let ctx = null;

function tone(freq, ms, volume = 0.05) {
  try {
    ctx = ctx || new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.value = volume;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + ms / 1000);
    osc.stop(ctx.currentTime + ms / 1000);
  } catch {
    // no audio available: stay silent
  }
}

export function soundFor(events, you, prefs) {
  if (!prefs.sound || !events) return;
  for (const e of events) {
    if (e.type === "play") tone(e.seat === you ? 520 : 440, 60, 0.03);
    else if (e.type === "trick") tone(330, 120, 0.03);
  }
}

export function yourTurnSound(prefs) {
  if (prefs.sound) tone(880, 150);
}
