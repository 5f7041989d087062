import type { User } from '@rideway/contract';
import { fromMinor, type UserType } from '@rideway/domain';
import { desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { savedAddresses } from '../../db/schema';
import type { UserRow } from '../accounts/accounts';
import { balanceMinor } from '../wallet/ledger';

/** A user as the API shows it (the contract's userSchema): never a password hash; money in major units. */
export function toApiUser(row: UserRow, extra: { walletBalanceMinor: number; savedAddresses?: User['savedAddresses'] }): User {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    mobile: row.mobile ?? '',
    email: row.email ?? '',
    usertype: row.usertype as UserType,
    loginType: (row.loginType ?? null) as User['loginType'],
    approved: row.approved,
    createdAt: row.createdAt,
    createdByAdmin: row.createdByAdmin,
    referralId: row.referralId,
    signupViaReferral: row.signupViaReferral,
    walletBalance: fromMinor(extra.walletBalanceMinor),
    profile_image: row.profileImage,
    pushToken: row.pushToken,
    userPlatform: row.userPlatform,
    fleetadmin: row.fleetadmin,
    driverActiveStatus: row.driverActiveStatus,
    queue: row.queue,
    location: row.locationLat !== null && row.locationLng !== null ? { lat: row.locationLat, lng: row.locationLng } : null,
    carType: row.carType,
    vehicleMake: row.vehicleMake,
    vehicleModel: row.vehicleModel,
    vehicleNumber: row.vehicleNumber,
    other_info: row.otherInfo,
    licenseImage: row.licenseImage,
    ratings: row.ratings ?? null,
    bankName: row.bankName,
    bankCode: row.bankCode,
    bankAccount: row.bankAccount,
    savedAddresses: extra.savedAddresses ?? [],
    language: row.language,
  };
}

/** One user's full view: with its wallet balance and saved addresses (most used first). */
export async function userView(db: Db | Tx, row: UserRow): Promise<User> {
  const addresses = await db.select().from(savedAddresses).where(eq(savedAddresses.uid, row.id)).orderBy(desc(savedAddresses.count));
  return toApiUser(row, {
    walletBalanceMinor: await balanceMinor(db, row.id),
    savedAddresses: addresses.map(({ description, lat, lng, count }) => ({ description, lat, lng, count })),
  });
}
