import { DOCUMENT_KINDS } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import { driverDocuments } from '../../db/schema';
import type { FileStorage } from '../../providers/storage';
import { fileUrl } from '../../providers/storage';
import { DOCUMENT_FOLDER } from './service';

/** A 1×1 PNG: the stand-in image of seeded documents. */
const PLACEHOLDER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Every required document, approved and valid until `expiresOn`, for a driver of the demo or the
 * tests: they go online as before while the rule stays on (issue 20). With storage, each gets a
 * stored stand-in image; without, an image URL that names no file.
 */
export async function seedApprovedDocuments(db: Db | Tx, uid: string, now: number, expiresOn: string, storage?: FileStorage): Promise<void> {
  const rows = [];
  for (const kind of DOCUMENT_KINDS) {
    const image = storage ? fileUrl(await storage.put(DOCUMENT_FOLDER, PLACEHOLDER_PNG, 'png')) : fileUrl(`${DOCUMENT_FOLDER}/${randomUUID()}.png`);
    rows.push({ id: randomUUID(), uid, kind, image, expiresOn, status: 'approved', reviewedBy: 'seed', reviewedAt: now, createdAt: now });
  }
  await db.insert(driverDocuments).values(rows);
}
