import type { PromoCheck, PromoCheckRequest } from '@rideway/contract';
import { fromMinor, toMinor } from '@rideway/domain';
import type { AppContext } from '../../context';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { findPromo, promoOffer } from '../promos/offer';
import { findUser } from '../users/accounts';
import { estimateTrip } from './estimate';

/**
 * Security-critical: the rider a check is for. A rider checks for itself only (a `customer` it
 * sends is ignored, so nobody learns which codes another rider has used); an admin names the
 * rider it books for, as its booking form does.
 */
async function riderOf(ctx: AppContext, actor: Actor, customer: string | undefined): Promise<string> {
  if (actor.usertype !== 'admin') return actor.uid;
  const rider = customer === undefined ? undefined : await findUser(ctx.db, customer);
  if (rider?.usertype !== 'rider') throw new AppError('select_proper', 'customer');
  return rider.id;
}

/**
 * POST /api/estimates/promo (issue 17): the estimate dialog's Apply. The code is looked up first,
 * so an unknown one costs no maps call; then the trip is priced by the server, as the booking will
 * be, and the code checked against that amount and that rider. Nothing is used up: the booking
 * counts the use when it is made (create.ts), and checks the code again then.
 */
export async function checkPromo(ctx: AppContext, actor: Actor, request: PromoCheckRequest): Promise<PromoCheck> {
  const riderUid = await riderOf(ctx, actor, request.customer);
  const promo = await findPromo(ctx.db, request.promo);
  const estimate = await estimateTrip(ctx, request);
  const offer = await promoOffer(ctx.db, promo, { riderUid, tripCost: estimate.grandTotal, now: ctx.now() });
  return {
    promo_details: offer.details,
    estimateFare: estimate.estimateFare,
    discount: offer.discount,
    customer_paid: fromMinor(toMinor(estimate.grandTotal) - toMinor(offer.discount)),
  };
}
