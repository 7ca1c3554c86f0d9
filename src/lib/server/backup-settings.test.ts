import { generateHybridIdentity, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { isRecipient } from './backup-settings';
import { isRecipient as libraryTakes } from './backup/encryption';

describe('the configuration’s check of an age recipient (no encryption library loaded)', () => {
	it('says what the encryption library says, for real keys of each kind and for near misses', async () => {
		const x25519 = await identityToRecipient(await generateX25519Identity());
		const hybrid = await identityToRecipient(await generateHybridIdentity());
		const flip = (key: string, at: number) =>
			key.slice(0, at) + (key[at] === 'q' ? 'p' : 'q') + key.slice(at + 1);
		const cases = [
			x25519,
			hybrid,
			'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p',
			flip(x25519, 20),
			flip(x25519, x25519.length - 1),
			x25519.toUpperCase(),
			x25519.slice(0, -1),
			`${x25519}q`,
			'age1notakey',
			'age1',
			'',
			'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE',
			flip(hybrid, 40)
		];
		for (const value of cases) expect(isRecipient(value), value.slice(0, 30)).toBe(libraryTakes(value));
		expect(isRecipient(x25519)).toBe(true);
		expect(isRecipient(hybrid)).toBe(true);
	});
});
