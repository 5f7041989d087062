import { DOCUMENT_KINDS, isVehicleDocumentKind, type DocumentKind } from '@rideway/domain';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { driverDocuments, vehicles } from '../../db/schema';
import { imageLibrary } from '../../providers/images';
import type { FileStorage } from '../../providers/storage';
import { fileUrl } from '../../providers/storage';
import { DOCUMENT_FOLDER } from './service';

const TITLES: Record<DocumentKind, string> = {
  licence_front: 'DRIVING LICENCE (front)',
  licence_back: 'DRIVING LICENCE (back)',
  id: 'IDENTITY CARD',
  registration: 'VEHICLE REGISTRATION',
  insurance: 'MOTOR INSURANCE CERTIFICATE',
};

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

/**
 * A card-sized picture of a seeded document: what an admin opening the demo's review screen sees,
 * marked as a specimen so no one takes it for a real paper.
 */
async function specimen(kind: DocumentKind, holder: string, expiresOn: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
  <rect width="640" height="400" rx="24" fill="#e8f0ea" stroke="#1b5e20" stroke-width="6"/>
  <rect x="0" y="0" width="640" height="72" rx="24" fill="#1b5e20"/>
  <text x="32" y="48" font-family="sans-serif" font-size="28" font-weight="bold" fill="#ffffff">${escapeXml(TITLES[kind])}</text>
  <rect x="32" y="104" width="150" height="190" fill="#c8d6cb"/>
  <text x="214" y="140" font-family="sans-serif" font-size="22" fill="#1c1c1c">Holder: ${escapeXml(holder)}</text>
  <text x="214" y="184" font-family="sans-serif" font-size="22" fill="#1c1c1c">Valid until: ${escapeXml(expiresOn)}</text>
  <text x="214" y="228" font-family="sans-serif" font-size="22" fill="#1c1c1c">No. RW-${escapeXml(kind.toUpperCase())}-DEMO</text>
  <text x="320" y="360" font-family="sans-serif" font-size="34" font-weight="bold" fill="#b71c1c" text-anchor="middle" opacity="0.8">SPECIMEN — DEMO DATA</text>
</svg>`;
  const sharp = await imageLibrary();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Every required document, approved and valid until `expiresOn`, for a driver of the demo or the
 * tests: they go online as before while the rule stays on (issue 20). The registration and
 * insurance are the active vehicle's (a driver without one gets its own papers only). With
 * storage (the demo), each gets a stored specimen picture naming its holder; without (the tests),
 * an image URL that names no file.
 */
export async function seedApprovedDocuments(db: Db | Tx, uid: string, now: number, expiresOn: string, storage?: { files: FileStorage; holder: string }): Promise<void> {
  const active = (await db.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.uid, uid), eq(vehicles.active, true))).limit(1))[0];
  const rows = [];
  for (const kind of DOCUMENT_KINDS) {
    const vehicleId = isVehicleDocumentKind(kind) ? active?.id : null;
    if (vehicleId === undefined) continue;
    const image = storage ? fileUrl(await storage.files.put(DOCUMENT_FOLDER, await specimen(kind, storage.holder, expiresOn), 'png')) : fileUrl(`${DOCUMENT_FOLDER}/${randomUUID()}.png`);
    rows.push({ id: randomUUID(), uid, kind, vehicleId, image, expiresOn, status: 'approved', reviewedBy: 'seed', reviewedAt: now, createdAt: now });
  }
  await db.insert(driverDocuments).values(rows);
}
