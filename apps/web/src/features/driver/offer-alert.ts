import { OFFER_ALERT_REPEATS, OFFER_VIBRATION_MS } from '../../config/ui-constants';

/** A two-tone chime, made by the browser's audio, so no sound file is fetched. */
function chime(context: AudioContext, at: number): void {
  for (const [offset, frequency] of [[0, 880], [0.18, 660]] as const) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, at + offset);
    gain.gain.exponentialRampToValueAtTime(0.001, at + offset + 0.16);
    tone.connect(gain).connect(context.destination);
    tone.start(at + offset);
    tone.stop(at + offset + 0.17);
  }
}

let audio: AudioContext | undefined;

/**
 * Issue 8: a new offer sounds and vibrates where the browser allows it (sound needs the page to
 * have been touched once; vibration needs a phone). CarHornRepeat repeats the chime three times.
 */
export function announceOffer(repeat: boolean): void {
  const times = repeat ? OFFER_ALERT_REPEATS : 1;
  if ('vibrate' in navigator) navigator.vibrate(Array.from({ length: times }, () => OFFER_VIBRATION_MS).flat());
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (let index = 0; index < times; index += 1) chime(audio, start + index * 0.6);
  } catch {
    // No audio output here: the vibration and the list are the alert.
  }
}
