/**
 * Fills a DATA_DIR for `npm run bench backup`: 10 000 leads and 500 stored images, through the application's own
 * database and storage modules (bundled by bench/backup.mjs). Usage: node seed.js <DATA_DIR> <leads> <images>.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { openDatabase } from '../src/lib/server/db';
import { FsStorage } from '../src/lib/server/storage';

const [dataDir, leads = '10000', images = '500', photo] = process.argv.slice(2);
if (!dataDir || !photo) throw new Error('usage: seed.js <DATA_DIR> <leads> <images> <photo>');

const database = openDatabase({ url: null, pgliteDir: path.join(dataDir, 'db'), purpose: 'bench' });
await database.migrate();
await database.db.execute(sql`
	insert into leads (kind, name, email, phone, city, message, created_at)
	select case when i % 3 = 0 then 'devis' else 'contact' end, 'Client ' || i, 'client' || i || '@exemple.fr',
		'06' || lpad((i * 7919 % 100000000)::text, 8, '0'), 'Lyon',
		repeat('Bonjour, nous aimerions refaire un mur en pierre sèche de douze mètres. ', 4) || i,
		now() - (i || ' minutes')::interval
	from generate_series(1, ${Number(leads)}) as i`);
await database.close();

// A site photo as uploads store it: WebP, about the size of a real one. Each copy differs by its metadata-free
// bytes only in name; the bucket holds `images` objects.
const webp = await sharp(photo).resize({ width: 1600 }).webp({ quality: 80 }).toBuffer();
const storage = new FsStorage({
	root: path.join(dataDir, 'storage'),
	bucket: 'private-gallery',
	origin: new URL('http://127.0.0.1'),
	secret: 'x'.repeat(64)
});
for (let i = 0; i < Number(images); i++)
	await storage.put(`${randomUUID()}.webp`, webp, {
		contentType: 'image/webp',
		cacheControl: 'public, max-age=31536000, immutable'
	});
console.log(JSON.stringify({ imageBytes: webp.length }));
