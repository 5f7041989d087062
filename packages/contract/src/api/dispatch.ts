import { z } from 'zod';
import { bookingSchema } from '../booking';

/** Request and response schemas of dispatch: the trips offered to a driver. */

export const driverTasksResponse = z.object({ tasks: z.array(bookingSchema) });
