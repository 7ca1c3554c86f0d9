import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zip } from './zip';

describe('zip', () => {
	it('writes an archive that unzip lists, tests and extracts byte for byte, UTF-8 names included', () => {
		const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
		const archive = zip([
			{
				name: 'connexions.csv',
				data: 'date\n2026-06-01T08:00:00.000Z\n',
				modifiedAt: new Date('2026-06-01T08:00:00Z')
			},
			{ name: 'réponses élève.csv', data: 'réponse;« oui »\n' },
			{ name: 'attestation.pdf', data: binary }
		]);
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-zip-')), 'a.zip');
		writeFileSync(file, archive);
		expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toMatch(/No errors detected/);
		const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
		expect(listing).toEqual(['connexions.csv', 'réponses élève.csv', 'attestation.pdf']);
		expect(execFileSync('unzip', ['-p', file, 'réponses élève.csv'], { encoding: 'utf8' })).toBe(
			'réponse;« oui »\n'
		);
		expect(execFileSync('unzip', ['-p', file, 'attestation.pdf']).equals(binary)).toBe(true);
	});
});
