/**
 * What the configuration checks of the backups' settings, on the ground: `BACKUP_KEEP`'s policy and
 * `BACKUP_AGE_RECIPIENTS`' keys. A leaf — no domain, no archive or encryption library — so that config.ts, which
 * every module stands on, stands on nothing above it (issue « The house, part 3 », point 2). The backup domain
 * applies them (backup/retention.ts, backup/encryption.ts).
 */

export interface KeepPolicy {
	/** The n newest, whatever their dates. */
	last: number;
	daily: number;
	weekly: number;
	monthly: number;
}

export const DEFAULT_KEEP = '7d,4w,6m';

/** `7d,4w,6m`, `14d`, `5`: null when it is not one of those forms. */
export function parseKeepPolicy(text: string): KeepPolicy | null {
	const policy: KeepPolicy = { last: 0, daily: 0, weekly: 0, monthly: 0 };
	const parts = text
		.split(/[\s,]+/)
		.map((part) => part.trim())
		.filter(Boolean);
	if (!parts.length) return null;
	for (const part of parts) {
		const match = /^(\d{1,4})([dwm]?)$/i.exec(part);
		if (!match) return null;
		const count = Number(match[1]);
		const unit = match[2]!.toLowerCase();
		const field = unit === 'd' ? 'daily' : unit === 'w' ? 'weekly' : unit === 'm' ? 'monthly' : 'last';
		if (policy[field]) return null;
		policy[field] = count;
	}
	return policy.last + policy.daily + policy.weekly + policy.monthly > 0 ? policy : null;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
	let check = 1;
	for (const value of values) {
		const top = check >>> 25;
		check = ((check & 0x1ffffff) << 5) ^ value;
		for (let i = 0; i < 5; i++) if ((top >>> i) & 1) check ^= GENERATOR[i]!;
	}
	return check;
}

/**
 * True when `value` is an age public key: a Bech32 string (its checksum right) whose prefix is one age knows —
 * `age1…` (X25519, 32 bytes), `age1pq1…` (post-quantum), `age1tag1…` — as the encryption library would take it
 * (backup/encryption.test.ts compares the two).
 */
export function isRecipient(value: string): boolean {
	if (value !== value.toLowerCase() || !/^age1/.test(value)) return false;
	const separator = value.lastIndexOf('1');
	const prefix = value.slice(0, separator);
	const data = [...value.slice(separator + 1)].map((c) => BECH32.indexOf(c));
	if (!['age', 'age1pq', 'age1tag'].includes(prefix) || data.length < 7 || data.includes(-1)) return false;
	const expanded = [
		...[...prefix].map((c) => c.charCodeAt(0) >> 5),
		0,
		...[...prefix].map((c) => c.charCodeAt(0) & 31)
	];
	if (polymod([...expanded, ...data]) !== 1) return false;
	// X25519: 32 bytes, 52 five-bit groups before the 6 of the checksum.
	return prefix !== 'age' || data.length === 52 + 6;
}
