/**
 * A ZIP archive (APPNOTE 6.3) of a few small files made in memory — the proof file of a learner: CSVs and two PDFs.
 * Deflated, with UTF-8 names (bit 11), no ZIP64 (each file and the whole stay far below 4 GB). Every tool opens it:
 * `unzip`, Windows' Explorer, macOS' Archive Utility.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
	name: string;
	data: Uint8Array | string;
	modifiedAt?: Date;
}

/** MS-DOS time and date, as ZIP stores them (local time has no meaning on a server: UTC). */
function dosTime(at: Date): { time: number; date: number } {
	const year = Math.max(1980, at.getUTCFullYear());
	return {
		time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
		date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate()
	};
}

export function zip(entries: ZipEntry[]): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
		const name = Buffer.from(entry.name, 'utf8');
		const deflated = deflateRawSync(data);
		const checksum = crc32(data) >>> 0;
		const { time, date } = dosTime(entry.modifiedAt ?? new Date());
		// The fields from « version needed » to « extra field length » stand alike in both headers.
		const fields = Buffer.alloc(26);
		fields.writeUInt16LE(20, 0); // version needed: 2.0 (deflate)
		fields.writeUInt16LE(0x0800, 2); // UTF-8 names
		fields.writeUInt16LE(8, 4); // deflate
		fields.writeUInt16LE(time, 6);
		fields.writeUInt16LE(date, 8);
		fields.writeUInt32LE(checksum, 10);
		fields.writeUInt32LE(deflated.length, 14);
		fields.writeUInt32LE(data.length, 18);
		fields.writeUInt16LE(name.length, 22); // then no extra field
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		fields.copy(local, 4);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(0x031e, 4); // made by: Unix, 3.0
		fields.copy(central, 6);
		central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, deflated);
		centrals.push(central, name);
		offset += local.length + name.length + deflated.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}
