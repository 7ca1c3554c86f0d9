import { describe, expect, it } from 'vitest';
import {
	answerPlan,
	objectHead,
	PROXY_CACHE_CONTROL,
	VERSIONED_CACHE_CONTROL,
	widthPlan
} from './answer-plan';
import { versionOf } from './slot-values';

const STORED = 'storage:5f1d0c2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f.webp';

describe('answerPlan: one decision for each photo, whichever way answers it', () => {
	it('names the stored variant of a width, or the value itself at full size', () => {
		expect(answerPlan(STORED, { width: 800 })).toMatchObject({
			sized: 'storage:5f1d0c2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f-w800.webp',
			objectPath: '5f1d0c2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f-w800.webp',
			variant: true
		});
		expect(answerPlan(STORED, { width: null })).toMatchObject({ sized: STORED, variant: false });
		// A stock host's width is its own parameter: no stored object, no variant to wait for.
		const stock = 'https://images.unsplash.com/photo-1?w=1600&h=900';
		expect(answerPlan(stock, { width: 480 })).toMatchObject({ objectPath: null, variant: false });
		expect(widthPlan(STORED, 480).objectPath).toBe('5f1d0c2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f-w480.webp');
	});

	it('caches for good only under the URL of this very value', () => {
		const version = versionOf(STORED);
		expect(answerPlan(STORED, { version }).cacheControl).toBe(VERSIONED_CACHE_CONTROL);
		expect(answerPlan(STORED, { version: 'an-old-one' }).cacheControl).toBe(PROXY_CACHE_CONTROL);
		expect(answerPlan(STORED, {}).cacheControl).toBe(PROXY_CACHE_CONTROL);
		expect(answerPlan(STORED, { version: '' }, '').versioned).toBe(false);
	});

	it('gives an object’s answer its head; a 304 says its ETag only', () => {
		const object = {
			etag: '"e1"',
			contentType: 'image/webp',
			size: 73_000,
			lastModified: 'Sun, 06 Dec 2026 10:00:00 GMT'
		};
		expect(objectHead(object, PROXY_CACHE_CONTROL, 200)).toEqual([
			['cache-control', PROXY_CACHE_CONTROL],
			['x-robots-tag', 'noindex, nofollow'],
			['etag', '"e1"'],
			['content-type', 'image/webp'],
			['content-length', '73000'],
			['last-modified', 'Sun, 06 Dec 2026 10:00:00 GMT']
		]);
		expect(objectHead(object, VERSIONED_CACHE_CONTROL, 304).map(([name]) => name)).toEqual([
			'cache-control',
			'x-robots-tag',
			'etag'
		]);
	});
});
