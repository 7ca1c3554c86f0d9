import { typeset } from '../../typography.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { business } from '$content/showcase/business';
import { fillPlaceholdersOrThrow } from '../content';
import { buildIndex, content } from './content';

const photos = path.resolve(import.meta.dirname, '../../../content/showcase/photos');

describe('showcase content index', () => {
	it('holds the ~30 pages the issue asks for, each with its own path', () => {
		const all = content.all();
		expect(all.length).toBeGreaterThanOrEqual(28);
		expect(new Set(all.map((p) => p.path)).size).toBe(all.length);
		expect(all[0]!.path).toBe('/');
		expect(content.services.length).toBeGreaterThanOrEqual(6);
		expect(content.services.length).toBeLessThanOrEqual(8);
		expect(content.secteurs.length).toBeGreaterThanOrEqual(8);
		expect(content.articles.length).toBeGreaterThanOrEqual(5);
		for (const path of [
			'/',
			'/contact',
			'/realisations',
			'/partenaires',
			'/mentions-legales',
			'/confidentialite',
			'/cgv'
		])
			expect(content.byPath(path), path).toBeDefined();
	});

	it('orders services, areas by distance and articles newest first', () => {
		const distances = content.secteurs.map((s) => s.meta.distanceKm);
		expect(distances).toEqual([...distances].sort((a, b) => a - b));
		const dates = content.articles.map((a) => a.meta.published);
		expect(dates).toEqual([...dates].sort().reverse());
		for (const article of content.articles)
			expect(article.readingMinutes).toBe(Math.max(1, Math.ceil(article.words / 220)));
		expect(content.articles.every((a) => a.words > 250)).toBe(true);
	});

	it('names only photos that exist in the photo folder', () => {
		const named = [
			...content.all().map((p) => content.byPath(p.path)!.meta as { photo?: { file: string } }),
			...(content.page('/realisations').meta.gallery ?? []).map((g) => ({ photo: { file: g.photo } }))
		].flatMap((m) => (m.photo ? [m.photo.file] : []));
		expect(named.length).toBeGreaterThan(20);
		for (const file of named) expect(existsSync(path.join(photos, file)), file).toBe(true);
	});

	it('fills the company file into the legal pages, and leaves no placeholder behind', () => {
		const legal = content.page('/mentions-legales').html;
		// Typeset: the number's groups are held together by no-break spaces.
		expect(legal).toContain(typeset(business.siret));
		expect(typeset(business.siret)).not.toBe(business.siret);
		expect(legal).toContain(business.address.street);
		for (const entry of content.all()) expect(content.byPath(entry.path)!.html).not.toMatch(/\{\{|\}\}/);
	});

	it('local-area pages are no spun duplicates: no two share a paragraph', () => {
		const paragraphs = content.secteurs.map(
			(s) =>
				new Set([...s.html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => m[1]!).filter((p) => p.length > 80))
		);
		for (let i = 0; i < paragraphs.length; i++)
			for (let j = i + 1; j < paragraphs.length; j++)
				for (const p of paragraphs[i]!) expect(paragraphs[j]!.has(p), p).toBe(false);
	});

	it('refuses an unknown placeholder, a bad front matter and two files for one path', () => {
		expect(() => fillPlaceholdersOrThrow('{{business.nope}}', 'x.md', { business })).toThrow(
			/unknown placeholder/
		);
		const file = readFileSync(
			path.resolve(import.meta.dirname, '../../../content/showcase/pages/cgv.md'),
			'utf8'
		);
		expect(() => buildIndex({ '/c/pages/a.md': file.replace(/^title: .*$/m, 'title: x') })).toThrow(/title/);
		expect(() => buildIndex({ '/c/pages/a.md': file, '/c/pages/b.md': file })).toThrow(/two content files/);
		expect(() => buildIndex({ '/c/pages/a.md': 'no front matter' })).toThrow(/front matter/);
	});
});
