import type { Redis } from 'ioredis';

/**
 * Ends a Redis connection: politely (QUIT) while it is up, at once when it is not. A shutdown
 * never waits on, or fails for, a Redis that is gone (issue 21 point 3); ioredis refuses QUIT on
 * a connection that is down when its offline queue is off.
 */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Lost between the check and the command: disconnect below.
    }
  }
  client.disconnect();
}
