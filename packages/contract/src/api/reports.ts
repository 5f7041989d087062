import { z } from 'zod';
import { driverEarningRowSchema, earningReportRowSchema, grossEarningsSchema } from '../money-records';

/** Section 9 reports and section 4's dashboard cards. */

export const earningsReportResponse = z.object({ rows: z.array(earningReportRowSchema) });
export const driverEarningsReportResponse = z.object({ rows: z.array(driverEarningRowSchema) });
export const dashboardResponse = z.object({ earnings: grossEarningsSchema });
