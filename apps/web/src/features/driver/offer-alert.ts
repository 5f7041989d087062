import { OFFER_ALERT_REPEATS, OFFER_VIBRATION_MS } from '../../config/ui-constants';

/** Two tones, made by the browser's audio, so no sound file is fetched: rising for an offer, falling for a cancel. */
const OFFER_TONES = [880, 660] as const;
const CANCEL_TONES = [440, 330] as const;

function chime(context: AudioContext, at: number, tones: readonly [number, number]): void {
  for (const [offset, frequency] of [[0, tones[0]], [0.18, tones[1]]] as const) {
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

/** Sounds and vibrates `times` times where the browser allows it (sound needs the page to have been touched once; vibration needs a phone). */
function alertDriver(times: number, tones: readonly [number, number]): void {
  if ('vibrate' in navigator) navigator.vibrate(Array.from({ length: times }, () => OFFER_VIBRATION_MS).flat());
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (let index = 0; index < times; index += 1) chime(audio, start + index * 0.6, tones);
  } catch {
    // No audio output here: the vibration and the screen are the alert.
  }
}

/** Issue 8: a new offer sounds and vibrates; CarHornRepeat repeats the chime three times. */
export function announceOffer(repeat: boolean): void {
  alertDriver(repeat ? OFFER_ALERT_REPEATS : 1, OFFER_TONES);
}

/** Issue 17: the trip the driver was on the way to was cancelled: a falling chime, twice, and a vibration. */
export function announceCancel(): void {
  alertDriver(2, CANCEL_TONES);
}
