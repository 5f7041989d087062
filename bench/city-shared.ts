// What city.ts and its load generator (city-load.ts) agree on: the seeded tokens, the drivers'
// homes, the steps timed and the messages between the two processes.

export const CITY_STEPS = ['book', 'offer', 'accept', 'arrive', 'start', 'reach', 'pay', 'complete'] as const;
export type CityStep = (typeof CITY_STEPS)[number];

/** The session token of the city's driver `n` (1-based) and rider `n` (0-based: rider 0 drives the recorded trip); city.ts stores their SHA-256. */
export const cityDriverToken = (stamp: string, n: number): string => `city${stamp}d${String(n)}`;
export const cityRiderToken = (stamp: string, n: number): string => `city${stamp}r${String(n)}`;

/** London, about 18 km by 17 km: where driver `n` waits, spread evenly but not on a grid. */
export function cityHome(n: number): { lat: number; lng: number } {
  return { lat: 51.43 + (((n * 7919) % 1000) / 1000) * 0.16, lng: -0.25 + (((n * 104_729) % 997) / 997) * 0.25 };
}

export type CityCommand =
  | { type: 'start'; base: string; stamp: string; drivers: number; riders: number; seconds: number; rate: number; stepPauseMs: number }
  | { type: 'ack' };

export type CityReport =
  | { type: 'record-on' }
  | { type: 'record-off' }
  /** The measured window opens (riders start booking) and closes (the last rider's trip ended). */
  | { type: 'window'; open: boolean }
  | {
      type: 'done';
      latencies: Record<CityStep, number[]>;
      errors: number;
      firstErrors: string[];
      completed: number;
      booked: number;
      measuredMs: number;
      positionsPerSecond: number;
      connectMs: number;
      addresses: number;
      /** CPU seconds the load generator used in the measured window. */
      cpuSeconds: number;
      /** Driver sockets opened again after they closed. */
      reconnects: number;
      /** Requests answered by no server (status 0: the connection broke) or with a 5xx, when (epoch ms). */
      interruptions: { at: number; step: string; status: number }[];
      /** When each trip completed (epoch ms). */
      completions: number[];
    };
